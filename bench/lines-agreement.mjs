// The one pass's agreement with `git blame -w -M` on real repositories (docs/lines.md, "How it
// compares"): for every line of every counted text file at HEAD, whether the one pass names the
// commit blame names, and each disagreement sorted into a kind:
//   - moved between files: `git blame -w -M -C` names the one pass's writer (the pass passes a
//     moved line through to its writer on purpose);
//   - moved within a file: the commit blame names deleted the same text (blanks aside) in the same
//     file, so the line is a move the pass passed through on purpose, where blame's own diff of the
//     piece against the parent aligned it elsewhere;
//   - copied within a file: the commit blame names kept the text elsewhere in the file (a copy, not
//     a move): counted against the pass;
//   - renames paired differently: the file is new at the commit blame names (`git log -M` and
//     blame chose different sources for it);
//   - other.
// Files the pass cannot answer for are blamed by the pass itself (they agree by construction) and
// counted apart.
// Usage: pnpm bench lines-agreement [<repository>...]   (work trees or bare repositories; without
// one, this checkout). The development corpus's figures in docs/lines.md are from its mirrors of
// sqlite-utils, insta, actions/toolkit and sentry-cli.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_EXCLUDE_FILES } from '@cadence-detect/config';
import { excludeMatcher, readHistory, readWholeHistoryPass } from '@cadence-detect/git-source';
import { blameLines, inTwos } from './blame-porcelain.mjs';

const SLOTS = 256;
const UNKNOWN = -1;
// The pass matches a moved line by its text without blanks when it has this many characters (ledger-texts.ts).
const MOVE_MIN_CHARS = 20;

const git = (dir, args) => {
  const run = spawnSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
};

const bare = (text) => text.replace(/\s+/g, '');

/** A commit's diff against its first parent: per new path, the texts it removed and whether the file is new there. */
const diffs = new Map();
function commitDiff(dir, commit) {
  let found = diffs.get(commit);
  if (found) return found;
  found = new Map();
  const shown = spawnSync('git', ['show', '--first-parent', '-w', '-M', '-U0', '--format=', '--no-color', commit], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  // A commit whose blobs the mirror lacks has no diff to read: its lines count as other.
  const out = shown.status === 0 ? shown.stdout : '';
  let current = null;
  for (const line of out.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = { removed: new Set(), isNew: false };
    } else if (current && (line.startsWith('new file mode') || line.startsWith('rename from'))) {
      current.isNew = true;
    } else if (current && !current.headed && line.startsWith('--- ')) {
      current.from = line.slice(4).replace(/^a\//, '');
    } else if (current && !current.headed && line.startsWith('+++ ')) {
      // The file's header ends here: a later line starting so is a hunk's.
      current.headed = true;
      const to = line.slice(4);
      // A deleted file is kept under its old path (its lines may have moved to another file).
      found.set(to === '/dev/null' ? `deleted:${current.from}` : to.replace(/^b\//, ''), current);
    } else if (current && current.headed && line.startsWith('-')) {
      current.removed.add(bare(line.slice(1)));
    }
  }
  diffs.set(commit, found);
  return found;
}

/** Whether a commit's diff deleted `key` (blanks aside) from a file other than `path`. */
function removedElsewhere(diff, path, key) {
  for (const [other, { removed }] of diff) if (other !== path && removed.has(key)) return true;
  return false;
}

/** Whether `older` is an ancestor of `newer` (the pass named an older writer than blame did). */
const ancestry = new Map();
function isAncestor(dir, older, newer) {
  const key = `${older} ${newer}`;
  let found = ancestry.get(key);
  if (found === undefined) {
    found = spawnSync('git', ['merge-base', '--is-ancestor', older, newer], { cwd: dir }).status === 0;
    ancestry.set(key, found);
  }
  return found;
}

async function measure(dir) {
  const head = git(dir, ['rev-parse', 'HEAD']).trim();
  const commits = git(dir, ['rev-list', '--count', 'HEAD']).trim();
  const merges = git(dir, ['rev-list', '--merges', '--count', 'HEAD']).trim();
  const started = process.hrtime.bigint();
  // A partial mirror's files without their blobs are left out, as the analysis leaves them out.
  const missing = (await readHistory(dir, { rev: head, excludeFiles: [] })).unreadable?.files ?? [];
  const pass = await readWholeHistoryPass(dir, head, {
    isExcludedByConfig: excludeMatcher(DEFAULT_EXCLUDE_FILES),
    ...(missing.length > 0 ? { omitPaths: missing } : {}),
  });
  const passSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const ledger = pass.ledger;
  const counted = [...pass.tree.files].filter(
    ([file, lines]) => lines !== null && lines > 0 && !pass.tree.isExcluded(file),
  );
  const kinds = {
    movedBelowCopyScore: 0,
    movedBetweenFiles: 0,
    movedWithinFile: 0,
    copiedWithinFile: 0,
    copyMissed: 0,
    renames: 0,
    other: 0,
  };
  let total = 0;
  let same = 0;
  let blamedByPass = 0;
  const disagreeing = [];
  await inTwos(counted, async ([file, lineCount]) => {
    const values = ledger.files.get(file);
    if (!values || values.length !== lineCount || values.includes(UNKNOWN)) {
      total += lineCount;
      same += lineCount;
      blamedByPass += lineCount;
      return;
    }
    const writers = await blameLines(dir, file);
    const differs = [];
    writers.forEach(({ commit: writer, path: writerPath }, i) => {
      total++;
      const named = ledger.commits[Math.floor(values[i] / SLOTS)];
      if (named === writer) same++;
      else differs.push({ line: i, named, writer, writerPath });
    });
    if (differs.length > 0) disagreeing.push({ file, differs });
  });
  let shown = 0;
  let shownOther = 0;
  let shownMissed = 0;
  let shownRenames = 0;
  await inTwos(disagreeing, async ({ file, differs }) => {
    const withCopies = await blameLines(dir, file, ['-w', '-M', '-C']);
    const text = git(dir, ['show', `HEAD:${file}`]).split('\n');
    for (const { line, named, writer, writerPath } of differs) {
      if (withCopies[line]?.commit === named) {
        kinds.movedBetweenFiles++;
        continue;
      }
      const atWriter = commitDiff(dir, writer).get(writerPath);
      const key = bare(text[line] ?? '');
      if (
        key.length >= MOVE_MIN_CHARS &&
        named !== writer &&
        removedElsewhere(commitDiff(dir, writer), writerPath, key) &&
        isAncestor(dir, named, writer)
      ) {
        // The commit blame names deleted the same text from another of its files: a move the pass
        // passed through to its writer on purpose, which blame's -C leaves below its 40-character score.
        kinds.movedBetweenFiles++;
        kinds.movedBelowCopyScore++;
      } else if (atWriter?.isNew) {
        kinds.renames++;
        if (process.env.SHOW_RENAMES && shownRenames++ < Number(process.env.SHOW_RENAMES))
          console.log(
            `    rename ${file}:${line + 1} (${writerPath} at blame's) pass ${named.slice(0, 8)} blame ${writer.slice(0, 8)} ${JSON.stringify(text[line])}`,
          );
      } else if (atWriter && key && atWriter.removed.has(key)) kinds.movedWithinFile++;
      else if (atWriter && writer !== named && isAncestor(dir, named, writer)) {
        kinds.copiedWithinFile++;
        if (process.env.SHOW_COPIES && shown++ < Number(process.env.SHOW_COPIES))
          console.log(
            `    copy ${file}:${line + 1} pass ${named.slice(0, 8)} blame ${writer.slice(0, 8)} ${JSON.stringify(text[line])}`,
          );
      } else if (atWriter) {
        kinds.copyMissed++;
        if (process.env.SHOW_MISSED && shownMissed++ < Number(process.env.SHOW_MISSED))
          console.log(
            `    missed ${file}:${line + 1} pass ${named.slice(0, 8)} blame ${writer.slice(0, 8)} ${JSON.stringify(text[line])}`,
          );
      } else {
        kinds.other++;
        if (process.env.SHOW_OTHER && shownOther++ < Number(process.env.SHOW_OTHER))
          console.log(
            `    other ${file}:${line + 1} pass ${named.slice(0, 8)} blame ${writer.slice(0, 8)} ${JSON.stringify(text[line])}`,
          );
      }
    }
  });
  const share = (n) => `${((n / total) * 100).toFixed(2)}%`;
  const apart = kinds.movedBetweenFiles + kinds.movedWithinFile;
  console.log(
    `${dir}: ${commits} commits (${merges} merges), ${total} counted lines at HEAD (${share(blamedByPass)} in files the pass blames); one pass ${passSeconds.toFixed(1)} s`,
  );
  console.log(
    `  agreement with git blame -w -M: ${share(same)}; with the moved lines (${share(apart)}) set apart: ${((same / (total - apart)) * 100).toFixed(2)}% (target >= 99.5%)`,
  );
  console.log(
    `  differences: moved between files ${share(kinds.movedBetweenFiles)} (${share(kinds.movedBelowCopyScore)} of them below -C's score), moved within a file ${share(kinds.movedWithinFile)}, copied within a file by the pass and not by blame ${share(kinds.copiedWithinFile)}, the other way ${share(kinds.copyMissed)}, renames paired differently ${share(kinds.renames)}, other ${share(kinds.other)}`,
  );
  return { total, same, apart, kinds };
}

const repositories = process.argv.slice(2);
if (repositories.length === 0) repositories.push(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
for (const dir of repositories) await measure(path.resolve(dir));
