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
  return { head, counted: lines.counted, commits: commits.length, records, byCommit };
}

/**
 * The reading for one repository: `scored` maps a commit hash to its out-of-fold `{ p, flagAt }`.
 * Commits the corpus did not label (no row, so no out-of-fold score) are counted apart.
 */
export async function notesTruth(mirror, scored) {
  const work = mkdtempSync(path.join(tmpdir(), 'cadence-notes-truth-'));
  try {
    const { dir, missing } = notedClone(mirror, work);
    const { head, counted, byCommit } = await notedLines(dir);
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
  }
}
