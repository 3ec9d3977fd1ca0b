import {
  isMeasurableCommit,
  severityFromScore,
  type CommitRecord,
  type Detection,
  type Suspicion,
  type TimelineBucket,
} from '@cadence/plugin-sdk';
import { round } from './strategy-outcomes.js';

/**
 * Repository scoring (docs/scoring.md is the reference; keep the two in step).
 *
 * - A commit's confidence combines its detections' confidences (score x strategy weight) as
 *   independent evidence: 1 - prod(1 - c). Two patterns on one commit count more than either.
 * - Only measurable commits (not merges, not a shallow boundary) that change counted lines (files
 *   matched by exclude_files left out) take part: lock-file bumps and vendored imports add nothing.
 * - overall = shrink(N) x (0.5 x mean commit confidence + 0.5 x share of commits at medium or above),
 *   with shrink(N) = N / (N + 1) so that one or two commits cannot reach a strong verdict, and every
 *   commit counting at most 1/N: no single commit dominates.
 */
export const SUSPICION_FLOOR = 0.25;
const FLAGGED = 0.4;

export interface CommitJudgement {
  readonly commit: CommitRecord;
  readonly confidence: number;
  readonly detections: readonly Detection[];
}

export function judgeCommits(commits: readonly CommitRecord[], detectionsByHash: ReadonlyMap<string, Detection[]>): CommitJudgement[] {
  const judged: CommitJudgement[] = [];
  for (const commit of commits) {
    const detections = detectionsByHash.get(commit.hash);
    if (!detections || detections.length === 0) continue;
    const confidence = 1 - detections.reduce((product, d) => product * (1 - d.confidence), 1);
    judged.push({ commit, confidence: round(confidence), detections });
  }
  return judged;
}

export function isScoredCommit(commit: CommitRecord): boolean {
  return isMeasurableCommit(commit) && commit.additions + commit.deletions > 0;
}

export function overallRepositoryScore(commits: readonly CommitRecord[], judged: readonly CommitJudgement[]): number {
  const scored = commits.filter(isScoredCommit);
  const n = scored.length;
  if (n === 0) return 0;
  const confidenceOf = new Map(judged.map((j) => [j.commit.hash, j.confidence]));
  let sum = 0;
  let flagged = 0;
  for (const commit of scored) {
    const confidence = confidenceOf.get(commit.hash) ?? 0;
    sum += confidence;
    if (confidence >= FLAGGED) flagged++;
  }
  const raw = 0.5 * (sum / n) + 0.5 * (flagged / n);
  return round((n / (n + 1)) * raw);
}

export function toSuspicions(judged: readonly CommitJudgement[]): Suspicion[] {
  return judged
    .filter((j) => j.confidence >= SUSPICION_FLOOR)
    .map((j) => {
      const strategies = [...new Set(j.detections.map((d) => d.strategy))];
      return {
        commit_hash: j.commit.shortHash,
        commit: j.commit.hash,
        message: `${strategies.length} pattern${strategies.length === 1 ? '' : 's'} detected (${strategies.join(', ')}): ${j.commit.subject}`,
        severity: severityFromScore(j.confidence),
        confidence: j.confidence,
        reasons: j.detections.map((d) => `${d.strategy}: ${d.message}`),
        author: j.commit.authorName,
        date: new Date(j.commit.authorTime * 1000).toISOString(),
      };
    });
}

const MAX_BUCKETS = 200;

/** Commits over time in at most 200 buckets, flagged ones counted apart (the HTML report's chart). */
export function buildTimeline(commits: readonly CommitRecord[], flaggedHashes: ReadonlySet<string>): TimelineBucket[] {
  if (commits.length === 0) return [];
  let first = Infinity;
  let last = -Infinity;
  for (const c of commits) {
    first = Math.min(first, c.authorTime);
    last = Math.max(last, c.authorTime);
  }
  const span = Math.max(last - first, 1);
  const count = Math.min(MAX_BUCKETS, commits.length);
  const width = Math.max(1, Math.ceil((span + 1) / count));
  const buckets: TimelineBucket[] = Array.from({ length: count }, (_, i) => ({ t: first + i * width, commits: 0, flagged: 0 }));
  for (const c of commits) {
    const index = Math.min(count - 1, Math.floor((c.authorTime - first) / width));
    const bucket = buckets[index]!;
    bucket.commits++;
    if (flaggedHashes.has(c.hash)) bucket.flagged++;
  }
  return buckets.filter((b) => b.commits > 0);
}
