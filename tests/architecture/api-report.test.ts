import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTempDir } from '@cadence-detect/test-support';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const script = path.join(root, 'scripts', 'api-report.mjs');

interface Report {
  readonly version: string;
  readonly surface: string;
}
const { judgeChange, withoutComments, announcedBump, oneNamePerLine, changesetsNaming } = (await import(
  pathToFileURL(script).href
)) as {
  changesetsNaming(name: string, changesetDir?: string): { file: string; bump: string }[];
  oneNamePerLine(text: string): string;
  judgeChange(change: {
    name: string;
    before: Report | null;
    after: string;
    version: string;
    bump: string | null;
  }): string | null;
  withoutComments(text: string): string;
  announcedBump(name: string, changesetDir?: string): string | null;
};

const NAME = '@cadence-detect/plugin-sdk';
const before: Report = {
  version: '1.16.0',
  surface: 'export interface RepositoryResult {\n    lines?: LinesAtHead;\n    era_check?: EraCheck;\n}\n',
};

describe('the plugin API report (scripts/api-report.mjs)', () => {
  it('the committed reports match the built declarations', () => {
    const checked = spawnSync(process.execPath, [script, '--check'], { cwd: root, encoding: 'utf8' });
    expect(checked.status, checked.stderr).to.equal(0);
  });

  it('refuses an unannounced addition, and takes an announced one', () => {
    const after = before.surface.replace('}\n', '    empty_commits?: EmptyCommits;\n}\n');
    const change = { name: NAME, before, after, version: '1.16.0', bump: null };
    expect(judgeChange(change)).to.match(/grew, unannounced/);
    expect(judgeChange({ ...change, bump: 'minor' })).to.equal(null);
    expect(judgeChange({ ...change, version: '1.17.0' })).to.equal(null);
    expect(judgeChange({ ...change, after: before.surface })).to.equal(null);
  });

  it('refuses a field that changes from absent to null, or goes away, in a minor release', () => {
    const after = before.surface.replace('era_check?: EraCheck;', 'era_check?: EraCheck | null;');
    const change = { name: NAME, before, after, version: '1.17.0', bump: 'minor' };
    expect(judgeChange(change)).to.match(/changed or went away[\s\S]*era_check\?: EraCheck;/);
    expect(judgeChange({ ...change, after: before.surface.replace('    lines?: LinesAtHead;\n', '') })).to.match(
      /lines\?: LinesAtHead/,
    );
    expect(judgeChange({ ...change, version: '2.0.0' })).to.equal(null);
    expect(judgeChange({ ...change, bump: 'major' })).to.equal(null);
  });

  it('reads a name added to an export list as an addition', () => {
    const list = (names: string) =>
      oneNamePerLine(`export type { ${names}, } from './result.js';\nexport { a } from './a.js';`);
    expect(list('A, B')).to.equal(
      "export type { A } from './result.js';\nexport type { B } from './result.js';\nexport { a } from './a.js';",
    );
    const change = { name: NAME, before: { version: '1.16.0', surface: list('A, B') }, after: list('A, B, C') };
    expect(judgeChange({ ...change, version: '1.16.0', bump: 'minor' })).to.equal(null);
    expect(judgeChange({ ...change, after: list('A'), version: '1.17.0', bump: null })).to.match(/\{ B \}/);
  });

  it('ignores comments, but not text inside string literals', () => {
    const text =
      '/** Says why. */\nexport declare const GLOB = "src/**/*.ts"; // a glob\n// gone\nexport type A = `/*${string}`;\n';
    expect(withoutComments(text)).to.equal(
      'export declare const GLOB = "src/**/*.ts";\nexport type A = `/*${string}`;',
    );
  });

  it('reads the bump a pending changeset announces for a package', async () => {
    const temp = await makeTempDir('cadence-changesets-');
    try {
      const dir = path.join(temp.path, '.changeset');
      await mkdir(dir);
      await writeFile(path.join(dir, 'a.md'), `---\n"${NAME}": minor\n"@cadence-detect/engine": major\n---\n\nText.\n`);
      await writeFile(path.join(dir, 'b.md'), `---\n"@cadence-detect/cli": patch\n---\n\nText.\n`);
      await writeFile(path.join(dir, 'README.md'), `---\n"${NAME}": major\n---\n`);
      expect(announcedBump(NAME, dir)).to.equal('minor');
      expect(announcedBump('@cadence-detect/engine', dir)).to.equal('major');
      expect(announcedBump('@cadence-detect/reports', dir)).to.equal(null);
      expect(changesetsNaming(NAME, dir)).to.deep.equal([{ file: 'a.md', bump: 'minor' }]);
    } finally {
      await temp.remove();
    }
  });

  it('keeps the SDK out of changesets: its version is the plugin API version and moves by hand', async () => {
    // A changeset naming the SDK would bump its hand-set version again at `pnpm version-packages`
    // (a major changeset on top of the hand-set 2.0.0 makes 3.0.0, outside every plugin's ^2.0.0).
    expect(changesetsNaming(NAME)).to.deep.equal([]);
    const temp = await makeTempDir('cadence-changesets-');
    try {
      await mkdir(path.join(temp.path, '.changeset'));
      await writeFile(path.join(temp.path, '.changeset', 'x.md'), `---\n"${NAME}": minor\n---\n\nText.\n`);
      const checked = spawnSync(process.execPath, [script, '--check'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, CADENCE_CHANGESET_DIR: path.join(temp.path, '.changeset') },
      });
      expect(checked.status).to.equal(1);
      expect(checked.stderr).to.match(/x\.md names it, but its version moves by hand with PLUGIN_API_VERSION/);
    } finally {
      await temp.remove();
    }
    const grown = judgeChange({
      name: NAME,
      before,
      after: `${before.surface}export declare const X = 1;\n`,
      version: before.version,
      bump: null,
    });
    expect(grown).to.match(/raise its minor version with PLUGIN_API_VERSION/);
  });
});
