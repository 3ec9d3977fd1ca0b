// How far commit-level inference carries to lines (docs/scoring.md, "Lines: notes against
// inference"): on a history that publishes Git AI Standard notes (refs/notes/ai), the line share at
// HEAD measured from the notes against the share Cadence infers with the notes hidden. A reading,
// not a target: nothing is fitted on it.
// Usage: node bench/corpus/notes-reading.mjs <bare mirror with refs/notes/ai> [branch]
// The mirror comes from the tool library's fetch (e.g. github:git-ai-project/git-ai).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtinRepositoryEngine } from '../builtin-engine.mjs';
import { notedClone, notedLines } from './notes-truth.mjs';

const [mirror, branchArg] = process.argv.slice(2);
if (!mirror) {
  console.error('usage: node bench/corpus/notes-reading.mjs <bare mirror> [branch]');
  process.exit(2);
}
const work = mkdtempSync(path.join(tmpdir(), 'cadence-notes-reading-'));
try {
  // Two clones of the branch: one with the notes, one without (the notes hidden).
  const noted = notedClone(mirror, work, { branch: branchArg });
  const hidden = notedClone(mirror, work, { branch: branchArg, withNotes: false, name: 'hidden.git' });
  if (noted.missing > 0) console.log(`${noted.missing} blobs absent from the mirror read as empty`);
  // The notes' own figure: of the lines at HEAD written by commits that carry a note, those the notes name.
  const { head, counted, commits, records, byCommit } = await notedLines(noted.dir);
  let notedLineCount = 0;
  let marked = 0;
  for (const entry of byCommit.values()) {
    notedLineCount += entry.lines;
    marked += entry.marked;
  }

  // Cadence's figures, through the engine with every built-in plugin: with the notes, and without.
  const engine = await builtinRepositoryEngine(work);
  const analyze = async (dir) => (await engine.analyze({ kind: 'repository', url: dir }, { network: null, allowLocalPaths: true })).lines;
  const withNotes = await analyze(noted.dir);
  const withoutNotes = await analyze(hidden.dir);
  // With the notes, a noted commit's lines are its marked lines plus its author's; the other
  // commits count as they do without notes. So what inference gives the noted commits' lines is
  // the assistant lines without notes less those with notes, plus the marked lines.
  const assistant = (l) => l.explicit + l.inferred;
  const inferredOnNoted = assistant(withoutNotes) - assistant(withNotes) + marked;
  const pct = (part, whole) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : 'n/a');
  console.log(`${path.basename(path.dirname(mirror))} at ${head.slice(0, 12)}: ${commits} commits, ${records.gitAi} with a v3 authorship log (${records.skippedCount} skipped), ${counted} counted lines`);
  console.log(`lines of noted commits: ${notedLineCount} (${pct(notedLineCount, counted)} of counted); the notes name ${marked} of them: ${pct(marked, notedLineCount)}`);
  console.log(`inference with the notes hidden gives those lines about ${inferredOnNoted.toFixed(0)}: ${pct(inferredOnNoted, notedLineCount)}`);
  console.log(`share at HEAD with the notes: ${withNotes.share}; with the notes hidden: ${withoutNotes.share} (explicit ${withoutNotes.explicit}, inferred ${withoutNotes.inferred}, outside ${withoutNotes.outside}, automation ${withoutNotes.automation})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
