// Line-level truth from Git AI Standard notes (refs/notes/ai) in `pnpm bench corpus`
// (docs/scoring.md, "Lines: notes against inference"). A history whose commits carry git-ai's
// authorship logs says, line by line, which of its lines at HEAD an assistant wrote. Against it:
// what inference gives the same lines, each commit's out-of-fold probability (the model fitted
// without the repository, attribution stripped) times its lines at HEAD. A reading, not a target:
// nothing is fitted on the notes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_EXCLUDE_FILES } from '@cadence-detect/config';
import { auc } from '@cadence-detect/model-fitting';
import { excludeMatcher, isTraceFile, readHeadLines, readHistory, readLineRecords, readLineTree } from '@cadence-detect/git-source';
import { CALIBRATION_PRIOR, PREVALENCE } from './train.mjs';

const NOTES_REF = 'refs/notes/ai';

const git = (cwd, args, input) => spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, input });

/** Whether a mirror carries git-ai's notes. */
export function hasNotes(mirror) {
  return git(mirror, ['rev-parse', '--verify', '--quiet', NOTES_REF]).status === 0;
}

/**
 * A bare clone of the mirror's default branch with its notes, in `work`. A mirror from the tool
 * library may lack its largest blobs (images): each reads as an empty blob (a replace ref), so the
 * history reads; those files are binary either way.
 */
export function notedClone(mirror, work, { withNotes = true, name = 'noted.git', branch } = {}) {
  branch ??= git(mirror, ['symbolic-ref', '--short', 'HEAD']).stdout.trim();
  const dir = path.join(work, name);
  const must = (run, what) => {
    if (run.status !== 0) throw new Error(`${what}: ${run.stderr}`);
    return run.stdout.trim();
  };
  must(git(work, ['clone', '--quiet', '--bare', '--single-branch', '--branch', branch, '--', mirror, dir]), 'clone');
  if (withNotes) must(git(dir, ['fetch', '--quiet', '--', mirror, `${NOTES_REF}:${NOTES_REF}`]), 'fetch the notes');
  const fsck = git(dir, ['fsck', '--connectivity-only']);
  const missing = new Set([...`${fsck.stdout}${fsck.stderr}`.matchAll(/to\s+blob ([0-9a-f]{40})/g)].map((m) => m[1]));
  const empty = must(git(dir, ['hash-object', '-w', '--stdin'], ''), 'an empty blob');
  for (const blob of missing) must(git(dir, ['update-ref', `refs/replace/${blob}`, empty]), 'a replace ref');
  return { dir, missing: missing.size };
}

/** Per commit the notes cover: its lines at HEAD and those the notes name an assistant's. */
export async function notedLines(dir) {
  const head = git(dir, ['rev-parse', 'HEAD']).stdout.trim();
  const { commits } = await readHistory(dir, { rev: head, excludeFiles: DEFAULT_EXCLUDE_FILES });
  const tree = await readLineTree(dir, head, excludeMatcher(DEFAULT_EXCLUDE_FILES));
  const records = await readLineRecords(dir, head, {
    commits: new Set(commits.map((c) => c.hash)),
    traceFiles: [...tree.files.keys()].filter(isTraceFile),
  });
  const lines = await readHeadLines(dir, head, { isExcluded: tree.isExcluded, tree, records, maxFiles: 20_000 });
  const byCommit = new Map();
  for (const [hash, entry] of lines.byCommit)
    if (records.byCommit.has(hash)) byCommit.set(hash, { lines: entry.lines, marked: entry.marked?.lines ?? 0 });
  const times = new Map(commits.map((c) => [c.hash, c.authorTime]));
  return { head, counted: lines.counted, commits: commits.length, records, byCommit, times };
}

/** A probability calibrated at `from` (a share of assistant commits) moved to `to` by Bayes' rule. */
export function atPrior(p, from, to) {
  const odds = (p / (1 - p)) * ((to / (1 - to)) / (from / (1 - from)));
  return Number.isFinite(odds) ? odds / (1 + odds) : 1;
}

/**
 * The share of assistant commits in `ps` (probabilities calibrated at `from`) by EM (Saerens,
 * Latinne and Decaestecker 2002): the prior whose adjusted probabilities average to itself.
 */
export function emPrior(ps, from, { iterations = 200, pseudo = 0 } = {}) {
  if (ps.length === 0) return from;
  let prior = from;
  for (let i = 0; i < iterations; i++) {
    // `pseudo` commits at `from` beside the real ones (a MAP estimate): a year of few commits stays near it.
    const next =
      (ps.reduce((sum, p) => sum + atPrior(Math.min(Math.max(p, 1e-9), 1 - 1e-9), from, prior), 0) + pseudo * from) /
      (ps.length + pseudo);
    const done = Math.abs(next - prior) < 1e-7;
    prior = Math.min(Math.max(next, 1e-6), 1 - 1e-6);
    if (done) break;
  }
  return prior;
}

/**
 * The reading for one repository: `scored` maps a commit hash to its out-of-fold `{ p, flagAt }`.
 * Commits the corpus did not label (no row, so no out-of-fold score) are counted apart.
 */
export async function notesTruth(mirror, scored) {
  const work = mkdtempSync(path.join(tmpdir(), 'cadence-notes-truth-'));
  try {
    const { dir, missing } = notedClone(mirror, work);
    const { head, counted, byCommit, times } = await notedLines(dir);
    // Every scored commit of the history (the notes' or not): what a prior estimated from the
    // history's own scores sees.
    const all = [...times.keys()].filter((hash) => scored.has(hash));
    const wholePrior = emPrior(all.map((hash) => scored.get(hash).p), CALIBRATION_PRIOR);
    const yearOf = (hash) => new Date(times.get(hash) * 1000).getUTCFullYear();
    const yearPriors = new Map();
    for (const year of new Set(all.map(yearOf)))
      yearPriors.set(year, emPrior(all.filter((h) => yearOf(h) === year).map((h) => scored.get(h).p), CALIBRATION_PRIOR, { pseudo: 20 }));
    const alternatives = { prevalence: 0, history: 0, year: 0 };
    let lines = 0;
    let marked = 0;
    let coveredLines = 0;
    let coveredMarked = 0;
    let inferred = 0;
    const commits = [];
    for (const [hash, entry] of byCommit) {
      lines += entry.lines;
      marked += entry.marked;
      const score = scored.get(hash);
      if (!score || entry.lines === 0) continue;
      coveredLines += entry.lines;
      coveredMarked += entry.marked;
      inferred += score.p * entry.lines;
      alternatives.prevalence += atPrior(score.p, CALIBRATION_PRIOR, PREVALENCE) * entry.lines;
      alternatives.history += atPrior(score.p, CALIBRATION_PRIOR, wholePrior) * entry.lines;
      alternatives.year += atPrior(score.p, CALIBRATION_PRIOR, yearPriors.get(yearOf(hash))) * entry.lines;
      commits.push({ p: score.p, flagged: score.p >= score.flagAt, positive: entry.marked * 2 >= entry.lines });
    }
    const mostlyAssistant = commits.filter((c) => c.positive);
    return {
      head,
      missing,
      counted,
      notedCommits: byCommit.size,
      scoredCommits: commits.length,
      lines,
      marked,
      coveredLines,
      notedShare: coveredLines ? coveredMarked / coveredLines : null,
      inferredShare: coveredLines ? inferred / coveredLines : null,
      // Readings of the same lines with the probabilities moved to another prior: the corpus's
      // prevalence, the history's own (EM over every scored commit), each year's own.
      atPrevalence: coveredLines ? alternatives.prevalence / coveredLines : null,
      atHistoryPrior: coveredLines ? alternatives.history / coveredLines : null,
      atYearPriors: coveredLines ? alternatives.year / coveredLines : null,
      historyPrior: wholePrior,
      yearPriors: [...yearPriors].sort((a, b) => a[0] - b[0]),
      auc: commits.length ? auc(commits.map((c) => c.p), commits.map((c) => (c.positive ? 1 : 0))) : null,
      mostlyAssistant: mostlyAssistant.length,
      mostlyAssistantFlagged: mostlyAssistant.length ? mostlyAssistant.filter((c) => c.flagged).length / mostlyAssistant.length : null,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Prints the reading for every repository whose mirror carries notes. */
export async function printNotesTruth(repositories, scored, log = console.log) {
  const noted = repositories.filter((r) => hasNotes(r.dir));
  log(
    `line-level truth from git-ai notes (${noted.length} of ${repositories.length} mirrors carry ${NOTES_REF}): the lines at HEAD of the commits the notes cover, the share the notes name an assistant's, and inference's share for the same lines (out of fold: each commit's probability from the model fitted without its repository, times its lines)`,
  );
  const pct = (v) => (v === null ? '-' : v.toFixed(3));
  for (const r of noted) {
    const t = await notesTruth(r.dir, scored);
    log(
      `  ${r.repo}: ${t.notedCommits} noted commits with lines at HEAD (${t.scoredCommits} of them in the corpus, ${t.coveredLines} of their ${t.lines} lines), noted share ${pct(t.notedShare)}, inferred share ${pct(t.inferredShare)}; per commit AUC ${pct(t.auc)} (at least half noted as an assistant's: ${t.mostlyAssistant} commits, flagged ${pct(t.mostlyAssistantFlagged)})${t.missing ? `; ${t.missing} blobs absent from the mirror read as empty` : ''}`,
    );
    log(
      `    the same lines with the probabilities moved from the ${CALIBRATION_PRIOR} prior: to the corpus's prevalence ${pct(PREVALENCE)} ${pct(t.atPrevalence)}; to the history's own prior (EM, ${pct(t.historyPrior)}) ${pct(t.atHistoryPrior)}; to each year's own (${t.yearPriors.map(([y, p]) => `${y} ${pct(p)}`).join(', ')}) ${pct(t.atYearPriors)}`,
    );
  }
}
