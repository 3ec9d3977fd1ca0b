import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * `pnpm release:check` as a process: publishes every public package to a real local Verdaccio and
 * installs the CLI alone, a third-party plugin, the example's tests, the plugin starter, then
 * everything (`@cadence-detect/cadence`) from it as a user would, and checks what a cold install of the light CLI brings. It is in the waiting tier (tests/tiers.mjs): .ci/run runs it under Node 22.
 */
describe('the release check (pnpm release:check)', function () {
  // A limit, not a measure: alone it takes about 4 minutes; in .ci/run, beside the other runs on
  // two cores, 9 to 10 (593 s at most so far).
  this.timeout(1_200_000);

  it('publishes the packages to a local registry and installs and runs them as a user would', async () => {
    const script = path.join(root, 'tests/release/release-check.ts');
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import=tsx', script], {
        cwd: root,
        // The suite runs on the built tree: the check publishes it as built.
        env: { ...process.env, CADENCE_RELEASE_CHECK_BUILT: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (exitCode) => resolve({ code: exitCode, output }));
    });
    // Where CI keeps it (.ci/run sets the file): each step's time, read when the run is slow.
    if (process.env.CADENCE_RELEASE_CHECK_LOG) await writeFile(process.env.CADENCE_RELEASE_CHECK_LOG, output);
    expect(code, output).to.equal(0);
    for (const step of [
      'npm install -g @cadence-detect/cli',
      'the light CLI: cadence webhook and cadence scan github:acme name the package they need (exit 2)',
      'everything in one command: npm uninstall -g @cadence-detect/cli, npm install -g @cadence-detect/cadence',
      'cadence webhook (the server beside the CLI) answers /health, then stops',
      'a cold install of the light CLI: npx with an empty cache, packages from this registry\u2019s storage',
      'npx @cadence-detect/cli analyze .',
      'cadence-plugin-file-drops: npm test',
      'npm init @cadence-detect/plugin big-commits (the published starter)',
      'the new plugin: npm install, npm test, npm run typecheck',
      'the new plugin beside the CLI: cadence plugins lists it, cadence analyze runs its strategy',
    ]) {
      expect(output).to.contain(`✓ ${step}`);
    }
    // The CI path's size and what it installs are checked inside; its figures are printed.
    expect(output).to.match(/@cadence-detect\/cli \(what ci, analyze and scan run\): [\d.]+ MB in \d+ packages/);
    expect(output).to.contain('; with an install script: none');
    expect(output).to.match(/release check passed in \d+\.\d s/);
  });
});
