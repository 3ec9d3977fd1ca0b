import {
  defineStrategy,
  definePlugin,
  exceedanceScore,
  isMeasurableCommit,
  judgeEachCommit,
  sizeEvidenceFactor,
  type CommitRecord,
  type Finding,
  type RepositoryContext,
} from '@cadence-detect/plugin-sdk';

/**
 * A commit's lines per minute are measured over the time since the same author's previous commit.
 * Below this floor the interval says more about clock granularity than typing speed, so it is
 * raised to the floor: 600 lines in 5 seconds and in 30 seconds both read as "under a minute".
 */
const MIN_INTERVAL_SECONDS = 30;

const messages = {
  additions: '{{rate}} additions/min ({{additions}} additions {{when}}) exceeds max_additions_per_min {{threshold}}',
  deletions: '{{rate}} deletions/min ({{deletions}} deletions {{when}}) exceeds max_deletions_per_min {{threshold}}',
} as const;
type StrategyFinding = Finding<keyof typeof messages>;

export const velocityStrategy = defineStrategy({
  meta: {
    name: 'velocity',
    category: 'velocity',
    description:
      'Lines added or deleted per minute since the same author\u2019s previous commit, against max_additions_per_min / max_deletions_per_min.',
    appliesTo: 'repository',
    weight: 0.9,
    messages,
  },
  analyze(context: RepositoryContext) {
    const { max_additions_per_min: maxAdd, max_deletions_per_min: maxDel } = context.thresholds;
    return judgeEachCommit(context.commits, (commit) => judgeCommit(commit, maxAdd, maxDel));
  },
});

function judgeCommit(commit: CommitRecord, maxAdd: number, maxDel: number): StrategyFinding | null {
  if (!isMeasurableCommit(commit) || commit.previousAuthorTime === null) return null;
  const seconds = Math.max(commit.authorTime - commit.previousAuthorTime, MIN_INTERVAL_SECONDS);
  const minutes = seconds / 60;
  const addRate = commit.additions / minutes;
  const delRate = commit.deletions / minutes;
  // Deletions are weaker evidence than additions: removing a folder is fast for anyone.
  const addScore = exceedanceScore(addRate, maxAdd);
  const delScore = exceedanceScore(delRate, maxDel) * 0.6;
  const score = Math.max(addScore, delScore) * sizeEvidenceFactor(commit);
  if (score <= 0) return null;
  const actual = commit.authorTime - commit.previousAuthorTime;
  // Said outright when the floor applied: "600 additions 4s after" alone would not explain the rate.
  const floored = actual < MIN_INTERVAL_SECONDS ? `, counted as ${MIN_INTERVAL_SECONDS}s (the floor)` : '';
  const when = `${formatInterval(actual)} after the author's previous commit${floored}`;
  const byAdditions = addScore >= delScore;
  return {
    commit: commit.hash,
    score,
    messageId: byAdditions ? 'additions' : 'deletions',
    data: byAdditions
      ? { rate: round(addRate), additions: commit.additions, when, threshold: maxAdd }
      : { rate: round(delRate), deletions: commit.deletions, when, threshold: maxDel },
    measured: { additions_per_min: round(addRate), deletions_per_min: round(delRate), interval_seconds: seconds },
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function formatInterval(seconds: number): string {
  if (seconds < 120) return `${Math.max(0, seconds)}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}min`;
  return `${Math.round(seconds / 360) / 10}h`;
}

export default definePlugin({
  name: 'velocity',
  apply(hooks) {
    hooks.registerStrategies.tap('velocity', (registrar) => registrar.add(velocityStrategy));
  },
});
