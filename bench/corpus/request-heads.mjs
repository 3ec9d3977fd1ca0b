// Squash commits carried by their requests' own commits (docs/scoring.md, "Pull-request heads"), on
// the development corpus's mirrors: per repository, the squash commits (`(#N)` subjects), those
// whose request head the mirror holds, and those the request's commits attribute while the squash
// itself names no assistant (the attribution plugin's own requestAttribution), per assistant. Without the heads none of them is explicit. Git AI notes
// are not read here (the corpus's mirrors carry none): the CLI reads them for both.
import { spawnSync } from 'node:child_process';
import { readHistory, readRequestCommits, squashSubjects } from '@cadence-detect/git-source';
import { attributeCommit, compileRules, requestAttribution } from '@cadence-detect/plugin-attribution';

/** One repository's figures: squash commits, those with a head, and the carried ones per assistant. */
export async function carriedByRequests(dir) {
  const parsed = spawnSync('git', ['--git-dir', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  if (parsed.status !== 0) throw new Error(`git rev-parse HEAD failed: ${parsed.stderr.trim()}`);
  const head = parsed.stdout.trim();
  const { commits } = await readHistory(dir, { rev: head, excludeFiles: [] });
  const squashes = squashSubjects(commits);
  const requests = await readRequestCommits(dir, { head, squashes, excludeFiles: () => false });
  const rules = compileRules();
  const identities = new Map();
  const byHash = new Map(commits.map((c) => [c.hash, c]));
  const carried = {};
  let withHead = 0;
  for (const squash of squashes) {
    const request = requests.get(squash.commit);
    if (!request) continue;
    withHead++;
    if (attributeCommit(byHash.get(squash.commit), rules, identities).length > 0) continue;
    const found = requestAttribution({ ...request, authorshipLogs: new Map() }, rules, identities);
    if (found) carried[found.first.assistant] = (carried[found.first.assistant] ?? 0) + 1;
  }
  return { squashes: squashes.length, withHead, carried };
}

/** Prints the figures of every present mirror, and the totals per assistant. */
export async function printCarriedByRequests(mirrors) {
  console.log('squash commits carried by their requests (refs/pull/N/head; explicit after, none before):');
  const totals = {};
  for (const { repo, dir } of mirrors) {
    try {
      const { squashes, withHead, carried } = await carriedByRequests(dir);
      for (const [assistant, n] of Object.entries(carried)) totals[assistant] = (totals[assistant] ?? 0) + n;
      const named = Object.entries(carried).map(([assistant, n]) => `${assistant} ${n}`).join(', ') || '-';
      console.log(`  ${repo.padEnd(40)} squashes ${String(squashes).padStart(5)}  with head ${String(withHead).padStart(5)}  carried: ${named}`);
    } catch (error) {
      console.log(`  ${repo.padEnd(40)} not read: ${String(error.message).split('\n')[0].slice(0, 120)}`);
    }
  }
  const named = Object.entries(totals).map(([assistant, n]) => `${assistant} ${n}`).join(', ') || 'none';
  console.log(`  carried per assistant: ${named}`);
}
