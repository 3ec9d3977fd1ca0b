// How far commit-level inference carries to lines (docs/scoring.md, "Lines: notes against
// inference"): on a history that publishes Git AI Standard notes (refs/notes/ai), the line share at
// HEAD measured from the notes against the share Cadence infers with the notes hidden. A reading,
// not a target: nothing is fitted on it.
// Usage: node bench/corpus/notes-reading.mjs <bare mirror with refs/notes/ai> [branch]
// The mirror comes from the tool library's fetch (e.g. github:git-ai-project/git-ai).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { excludeMatcher, readHeadLines, readHistory, readLineRecords, readLineTree, isTraceFile } from '@cadence-detect/git-source';
import { DEFAULT_EXCLUDE_FILES } from '@cadence-detect/config';
import { builtinRepositoryEngine } from '../builtin-engine.mjs';

const [mirror, branchArg] = process.argv.slice(2);
if (!mirror) {
  console.error('usage: node bench/corpus/notes-reading.mjs <bare mirror> [branch]');
  process.exit(2);
}
const git = (cwd, args) => {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
};
const branch = branchArg ?? git(mirror, ['symbolic-ref', '--short', 'HEAD']);
const work = mkdtempSync(path.join(tmpdir(), 'cadence-notes-reading-'));
try {
  // Two clones of the branch: one with the notes, one without (the notes hidden).
  const noted = path.join(work, 'noted.git');
  const hidden = path.join(work, 'hidden.git');
  for (const dir of [noted, hidden]) git(work, ['clone', '--quiet', '--bare', '--single-branch', '--branch', branch, '--', mirror, dir]);
  git(noted, ['fetch', '--quiet', '--', mirror, 'refs/notes/ai:refs/notes/ai']);
  // A mirror from the tool library may lack its largest blobs (images): each clone reads an empty
  // blob in their place (a replace ref), so the history reads; those files are binary either way.
  for (const dir of [noted, hidden]) {
    const missing = new Set([...spawnSync('git', ['fsck', '--connectivity-only'], { cwd: dir, encoding: 'utf8' }).output.join('').matchAll(/to\s+blob ([0-9a-f]{40})/g)].map((m) => m[1]));
    const empty = spawnSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: '', encoding: 'utf8' }).stdout.trim();
    for (const blob of missing) git(dir, ['update-ref', `refs/replace/${blob}`, empty]);
    if (missing.size > 0 && dir === noted) console.log(`${missing.size} blobs absent from the mirror read as empty`);
  }
  const head = git(noted, ['rev-parse', 'HEAD']);

  // The notes' own figure: of the lines at HEAD written by commits that carry a note, those the notes name.
  const { commits } = await readHistory(noted, { rev: head, excludeFiles: DEFAULT_EXCLUDE_FILES });
  const tree = await readLineTree(noted, head, excludeMatcher(DEFAULT_EXCLUDE_FILES));
  const records = await readLineRecords(noted, head, { commits: new Set(commits.map((c) => c.hash)), traceFiles: [...tree.files.keys()].filter(isTraceFile) });
  const lines = await readHeadLines(noted, head, { isExcluded: tree.isExcluded, tree, records, maxFiles: 20_000 });
  let notedLines = 0;
  let marked = 0;
  for (const [hash, entry] of lines.byCommit) {
    if (!records.byCommit.has(hash)) continue;
    notedLines += entry.lines;
    marked += entry.marked?.lines ?? 0;
  }

  // Cadence's figures, through the engine with every built-in plugin: with the notes, and without.
  const engine = await builtinRepositoryEngine(work);
  const analyze = async (dir) => (await engine.analyze({ kind: 'repository', url: dir }, { network: null, allowLocalPaths: true })).lines;
  const withNotes = await analyze(noted);
  const withoutNotes = await analyze(hidden);
  // With the notes, a noted commit's lines are its marked lines plus its author's; the other
  // commits count as they do without notes. So what inference gives the noted commits' lines is
  // the assistant lines without notes less those with notes, plus the marked lines.
  const assistant = (l) => l.explicit + l.inferred;
  const inferredOnNoted = assistant(withoutNotes) - assistant(withNotes) + marked;
  const pct = (part, whole) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : 'n/a');
  console.log(`${path.basename(path.dirname(mirror))} at ${head.slice(0, 12)}: ${commits.length} commits, ${records.gitAi} with a v3 authorship log (${records.skippedCount} skipped), ${lines.counted} counted lines`);
  console.log(`lines of noted commits: ${notedLines} (${pct(notedLines, lines.counted)} of counted); the notes name ${marked} of them: ${pct(marked, notedLines)}`);
  console.log(`inference with the notes hidden gives those lines about ${inferredOnNoted.toFixed(0)}: ${pct(inferredOnNoted, notedLines)}`);
  console.log(`share at HEAD with the notes: ${withNotes.share}; with the notes hidden: ${withoutNotes.share} (explicit ${withoutNotes.explicit}, inferred ${withoutNotes.inferred}, outside ${withoutNotes.outside}, automation ${withoutNotes.automation})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
