import { ERA_CHECK_BEFORE, type CommitRecord } from '@cadence-detect/plugin-sdk';
import type { CommitJudgement } from './repository-scoring.js';

/** GitHub Copilot's first public preview: no coding assistant wrote commits before it (docs/scoring.md, The false-alarm floor). */
const ERA_CHECK_BEFORE_SECONDS = Date.parse(`${ERA_CHECK_BEFORE}T00:00:00Z`) / 1000;

/** The repository's sums over its commits' verdicts. */
export interface VerdictTotals {
  sum: number;
  scored: number;
  attributed: number;
  automationCommits: number;
  readonly era: { commits: number; flagged: number; sum: number };
  readonly assistants: Record<string, number>;
  readonly empty: { commits: number; readonly assistants: Record<string, number> };
}

export function newTotals(): VerdictTotals {
  return {
    sum: 0,
    scored: 0,
    attributed: 0,
    automationCommits: 0,
    era: { commits: 0, flagged: 0, sum: 0 },
    assistants: {},
    empty: { commits: 0, assistants: {} },
  };
}

export function countVerdict(
  totals: VerdictTotals,
  commit: CommitRecord,
  verdict: Pick<CommitJudgement, 'confidence' | 'flagged' | 'explicit' | 'automation'> & {
    readonly named: readonly string[];
  },
  counts: boolean,
): void {
  const { confidence, flagged, explicit, automation, named } = verdict;
  if (counts) {
    totals.sum += confidence;
    totals.scored++;
  }
  if (automation) totals.automationCommits++;
  // Before assistants existed, a flag can only be a false alarm: the floor the history measures on itself.
  if (counts && !explicit && commit.authorTime < ERA_CHECK_BEFORE_SECONDS) {
    totals.era.commits++;
    totals.era.sum += confidence;
    if (flagged) totals.era.flagged++;
  }
  if (explicit) {
    totals.attributed++;
    countNamed(totals.assistants, named);
  }
}

export function countNamed(counts: Record<string, number>, names: readonly string[]): void {
  for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
}
