import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import type { CiRunner } from '@cadence-detect/plugin-sdk';
import { runnerCommand } from '../src/cli/ci/ci-command.js';
import { missingCiRunner } from '../src/cli/ci/ci-runners.js';

const io = { stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: '/' };
const runner = (flags: string): CiRunner => ({
  description: 'a test CI',
  options: [{ flags, description: 'clashes' }],
  run: () => Promise.resolve(),
});

describe('cadence ci: finding and building a forge\u2019s runner', () => {
  it('says an installed forge plugin that did not load did not load, with its reason, rather than "not installed"', () => {
    const error = missingCiRunner('gitlab', {
      runners: new Map(),
      unloaded: [
        {
          specifier: '@cadence-detect/plugin-gitlab',
          source: 'builtin',
          packageName: '@cadence-detect/plugin-gitlab',
          version: '0.1.0',
          path: '/x',
          status: 'failed',
          reason: 'import failed: SyntaxError',
        },
      ],
    });
    expect(error.message).to.equal(
      'cadence ci gitlab needs @cadence-detect/plugin-gitlab, which is installed but did not load (failed): import failed: SyntaxError',
    );
    expect(missingCiRunner('gitlab', { runners: new Map(), unloaded: [] }).message).to.contain(
      'which is not installed',
    );
  });

  it('refuses a runner option that shadows a common one, help or the version, naming the plugin', () => {
    for (const flags of ['--path <dir>', '-h, --hint', '--base-ref <r>, --base <ref>', '-V'])
      expect(() => runnerCommand('acme', runner(flags), io), flags).to.throw(/the acme plugin's CI runner declares/);
    expect(() => runnerCommand('acme', runner('-o, --output <file>'), io)).to.not.throw();
  });
});
