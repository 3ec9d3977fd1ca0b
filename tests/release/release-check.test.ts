import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * `pnpm release:check` as a process: publishes every public package to a real local Verdaccio and
 * installs the CLI, a third-party plugin, the example's tests and the plugin starter from it as a
 * user would. It is in the backend tier (tests/tiers.mjs): .ci/run runs it under Node 22.
 */
describe('the release check (pnpm release:check)', function () {
  this.timeout(600_000);

  it('publishes the packages to a local registry and installs and runs them as a user would', async () => {
    const script = path.join(root, 'tests/release/release-check.ts');
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import=tsx', script], {
        cwd: root,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (exitCode) => resolve({ code: exitCode, output }));
    });
    expect(code, output).to.equal(0);
    for (const step of [
      'npm install -g @cadence-detect/cli',
      'cadence webhook answers /health',
      'npx @cadence-detect/cli analyze .',
      'cadence-plugin-file-drops: npm test',
      'npm init @cadence-detect/plugin big-commits (the published starter)',
      'the new plugin: npm install, npm test, npm run typecheck',
      'the new plugin beside the CLI: cadence plugins lists it, cadence analyze runs its strategy',
    ]) {
      expect(output).to.contain(`✓ ${step}`);
    }
    expect(output).to.match(/release check passed in \d+\.\d s/);
  });
});
