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

const messages = {
  additions: '{{additions}} additions exceeds suspicious_additions {{threshold}}{{note}}',
  deletions: '{{deletions}} deletions exceeds suspicious_deletions {{threshold}}{{note}}',
} as const;
type StrategyFinding = Finding<keyof typeof messages>;

export const sizeStrategy = defineStrategy({
  meta: {
    name: 'size',
    category: 'size',
    description:
      'Lines added or deleted in one commit (excluded files left out), against suspicious_additions / suspicious_deletions.',
    appliesTo: 'repository',
    weight: 0.7,
    messages,
  },
  analyze(context: RepositoryContext) {
    const { suspicious_additions: maxAdd, suspicious_deletions: maxDel } = context.thresholds;
    return judgeEachCommit(context.commits, (commit) => judgeCommit(commit, maxAdd, maxDel));
  },
});

function judgeCommit(commit: CommitRecord, maxAdd: number, maxDel: number): StrategyFinding | null {
  if (!isMeasurableCommit(commit)) return null;
  const addScore = exceedanceScore(commit.additions, maxAdd);
  // Large deletions are mostly clean-ups: weaker evidence than large additions.
  const delScore = exceedanceScore(commit.deletions, maxDel) * 0.6;
  const factor = sizeEvidenceFactor(commit);
  const score = Math.max(addScore, delScore) * factor;
  if (score <= 0) return null;
  const note = factor < 1 ? ' (discounted: initial import or squash merge)' : '';
  const byAdditions = addScore >= delScore;
  return {
    commit: commit.hash,
    score,
    messageId: byAdditions ? 'additions' : 'deletions',
    data: byAdditions
      ? { additions: commit.additions, threshold: maxAdd, note }
      : { deletions: commit.deletions, threshold: maxDel, note },
    measured: { additions: commit.additions, deletions: commit.deletions },
  };
}

export default definePlugin({
  name: 'size',
  apply(hooks) {
    hooks.registerStrategies.tap('size', (registrar) => registrar.add(sizeStrategy));
  },
});
