// A commit built in a worktree of its own beside the checkout, for benchmarks that compare against
// it (`pnpm bench against`, `pnpm bench install`). Kept under the system's temporary folder and
// reused while its commit is the same.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function git(args, cwd = root) {
  const out = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`git ${args.join(' ')}: ${out.stderr}`);
  return out.stdout.trim();
}

export function step(command, args, cwd) {
  console.log(`$ ${command} ${args.join(' ')}   (in ${cwd})`);
  const out = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (out.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

/** The full commit id `ref` names, and its built worktree's folder. */
export function baselineTree(ref) {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const tree = path.join(tmpdir(), `cadence-bench-baseline-${commit.slice(0, 12)}`);
  if (!existsSync(path.join(tree, '.built'))) {
    if (!existsSync(tree)) git(['worktree', 'add', '--detach', tree, commit]);
    step('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], tree);
    step('pnpm', ['-s', 'build'], tree);
    writeFileSync(path.join(tree, '.built'), '');
  }
  return { commit, tree };
}
