#!/usr/bin/env node
/**
 * `pnpm release` (after `pnpm version-packages` and a build): publishes what changed, the CLI last.
 * 1. every public package but those a CI job installs, the CLI and the forge plugins
 *    (`pnpm -r publish` skips versions already on the registry);
 * 2. each forge plugin, then the CLI: its npm-shrinkwrap.json written from the tarballs just
 *    published (scripts/shrinkwrap.mjs), then the package with it (its prepublishOnly refuses a
 *    missing or stale file);
 * 4. the git tags: `changeset tag` (each package's), then `v<CLI version>` and the moving `v<major>`
 *    the GitHub Action and the GitLab template are pinned by (scripts/release-tags.mjs). Push them with
 *    `git push origin v<version>` and `git push --force origin v<major>`.
 * The registry is npm's configured one. No shell: each step is a program with its arguments.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { shrinkwrappedDirs, writeShrinkwrap } from './shrinkwrap.mjs';
import { requireTaggerIdentity, tagRelease } from './release-tags.mjs';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

function run(command, args) {
  return new Promise((resolve, reject) => {
    process.stdout.write(`$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

try {
  requireTaggerIdentity(root);
  const last = (await shrinkwrappedDirs()).map((dir) => ({
    dir,
    name: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name,
  }));
  await run('pnpm', ['-r', ...last.flatMap(({ name }) => ['--filter', `!${name}`]), 'publish', '--access', 'public']);
  for (const { dir, name } of last) {
    const { packages } = await writeShrinkwrap(dir);
    process.stdout.write(`${path.relative(root, dir)}/npm-shrinkwrap.json: ${packages} packages\n`);
    await run('pnpm', ['--filter', name, 'publish', '--access', 'public']);
  }
  await run('pnpm', ['changeset', 'tag']);
  const { version } = JSON.parse(readFileSync(path.join(root, 'host', 'package.json'), 'utf8'));
  process.stdout.write(`tags: ${tagRelease(version, root).join(', ')}\n`);
} catch (error) {
  process.stderr.write(`release: ${error.message}\n`);
  process.exit(1);
}
