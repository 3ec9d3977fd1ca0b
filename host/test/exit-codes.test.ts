import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CommanderError } from 'commander';
import { loadConfig } from '@cadence-detect/config';
import { CadenceError } from '@cadence-detect/errors';
import { loadPlugins, resolvePluginOptions } from '@cadence-detect/plugin-loader';
import { reportFormatFromPath } from '@cadence-detect/reports/render';
import { makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { CliError, commandEnd, exitCodeOf } from '../src/cli/exit-codes.js';

async function thrownBy(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** docs/cli.md, Exit codes: the one mapping of what a command threw to how it ends. */
describe('CLI exit codes (cli/exit-codes.ts)', () => {
  let dir: TempDir;
  before(async () => {
    dir = await makeTempDir('cadence-exit-codes-');
  });
  after(() => dir.remove());

  it('numbers the outcomes as docs/cli.md does: 0 done, 1 failed, 2 bad usage or configuration, 3 a gate', () => {
    expect([exitCodeOf('done'), exitCodeOf('failed'), exitCodeOf('usage'), exitCodeOf('gate')]).to.deep.equal([
      0, 1, 2, 3,
    ]);
    expect(commandEnd(new CliError('gate', 'verdict suspicious reaches --fail-on suspicious'))).to.deep.equal({
      code: 3,
      message: 'verdict suspicious reaches --fail-on suspicious',
    });
    expect(commandEnd(new CliError('failed', 'no commits'))).to.deep.include({ code: 1 });
    expect(commandEnd(new CliError('usage', 'bad'))).to.deep.include({ code: 2 });
  });

  it('ends a refused URL or path (ERR_INVALID_SOURCE) with 2 and any other operational code with 1, the code leading the line', () => {
    expect(commandEnd(new CadenceError('ERR_INVALID_SOURCE', { message: 'Not a revision: "x"' }))).to.deep.equal({
      code: 2,
      message: 'ERR_INVALID_SOURCE: Not a revision: "x"',
    });
    for (const code of [
      'ERR_GIT_CLONE_FAILED',
      'ERR_NO_COMMITS_FOUND',
      'ERR_PRIVATE_ADDRESS',
      'ERR_CANCELLED',
      'ERR_INTERNAL',
    ] as const) {
      expect(commandEnd(new CadenceError(code)), code).to.deep.include({ code: 1 });
    }
  });

  it('ends an invalid configuration (ConfigError) with 2 and its message', async () => {
    // The exit code is the CLI's to choose: the configuration package throws a ConfigError without one.
    const cwd = path.join(dir.path, 'config');
    await mkdir(cwd, { recursive: true });
    await writeFile(path.join(cwd, '.cadence.yaml'), 'thresholds:\n  suspicious_additons: 5\n');
    const error = await thrownBy(() => loadConfig({ cwd, env: {} }));
    expect(error).to.have.property('name', 'ConfigError');
    const end = commandEnd(error);
    expect(end?.code).to.equal(2);
    expect(end?.message).to.contain('thresholds.suspicious_additons');
  });

  it('ends a named plugin that does not load (PluginLoadError) and refused plugin options (PluginOptionsError) with 2', async () => {
    // Moved from packages/plugin-loader/test/loader.test.ts.
    const missing = await thrownBy(() =>
      loadPlugins({ builtins: [], hostDir: dir.path, configured: ['./nowhere'], configDir: dir.path, discoverIn: [] }),
    );
    expect(missing).to.have.property('name', 'PluginLoadError');
    expect(commandEnd(missing)).to.deep.include({ code: 2 });
    expect(commandEnd(missing)?.message).to.match(/plugin \.\/nowhere \(config\) could not be loaded: not found/);
    const refused = await thrownBy(() =>
      resolvePluginOptions([], { sections: { 'not-loaded': { colour: 'red' } }, inline: new Map() }),
    );
    expect(refused).to.have.property('name', 'PluginOptionsError');
    expect(commandEnd(refused)).to.deep.include({ code: 2 });
  });

  it('ends an unknown report extension (UsageError) with 2', async () => {
    const error = await thrownBy(() => reportFormatFromPath('report.docx'));
    expect(error).to.have.property('name', 'UsageError');
    expect(commandEnd(error)).to.deep.include({ code: 2 });
  });

  it('ends help and version with 0 and every parse error with 2, leaving the words to commander; anything else is not an ending', () => {
    expect(commandEnd(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).to.deep.equal({
      code: 0,
      message: null,
    });
    expect(
      commandEnd(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--nope'")),
    ).to.deep.equal({ code: 2, message: null });
    expect(commandEnd(new TypeError('a bug'))).to.equal(null);
    expect(commandEnd('thrown text')).to.equal(null);
  });
});
