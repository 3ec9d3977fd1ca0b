import {
  defineStrategy,
  definePlugin,
  isMeasurableCommit,
  judgeEachCommit,
  type CommitRecord,
  type Finding,
  type RepositoryContext,
} from '@cadence-detect/plugin-sdk';

/**
 * Below this many changed lines a quick follow-up commit (a typo fix, a forgotten file) is ordinary
 * human behaviour, so such commits are weighted down in proportion to their size.
 */
const SIZE_FOR_FULL_WEIGHT = 80;

const messages = {
  quick:
    "committed {{seconds}}s after the author's previous commit ({{lines}} lines changed: additions plus deletions), under min_time_delta_seconds {{threshold}}",
} as const;
type StrategyFinding = Finding<keyof typeof messages>;

export const timingStrategy = defineStrategy({
  meta: {
    name: 'timing',
    category: 'timing',
    description:
      'Time since the same author\u2019s previous commit, against min_time_delta_seconds; larger commits made that quickly count more.',
    appliesTo: 'repository',
    weight: 0.6,
    messages,
  },
  analyze(context: RepositoryContext) {
    const threshold = context.thresholds.min_time_delta_seconds;
    return judgeEachCommit(context.commits, (commit) => judgeCommit(commit, threshold));
  },
});

function judgeCommit(commit: CommitRecord, threshold: number): StrategyFinding | null {
  if (!isMeasurableCommit(commit) || commit.previousAuthorTime === null || threshold <= 0) return null;
  const delta = commit.authorTime - commit.previousAuthorTime;
  if (delta >= threshold) return null;
  const lines = commit.additions + commit.deletions;
  if (lines === 0) return null;
  // A negative delta (clock skew, rebased history) is treated as simultaneous.
  const closeness = 1 - Math.max(delta, 0) / threshold;
  const sizeWeight = Math.min(1, 0.25 + lines / SIZE_FOR_FULL_WEIGHT);
  const score = (0.4 + 0.6 * closeness) * sizeWeight;
  return {
    commit: commit.hash,
    score,
    messageId: 'quick',
    data: { seconds: Math.max(delta, 0), lines, threshold },
    measured: { seconds_since_previous: delta, lines },
  };
}

export default definePlugin({
  name: 'timing',
  apply(hooks) {
    hooks.registerStrategies.tap('timing', (registrar) => registrar.add(timingStrategy));
  },
});
