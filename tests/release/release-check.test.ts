import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * `pnpm release:check` as a process: publishes every public package to a real local Verdaccio and
 * installs the CLI, a third-party plugin and the example's tests from it as a user would. .ci/run
 * runs this file in the Node 20 suite only (the Node 22 run ignores tests/release).
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
    ]) {
      expect(output).to.contain(`✓ ${step}`);
    }
    expect(output).to.match(/release check passed in \d+\.\d s/);
  });
});
