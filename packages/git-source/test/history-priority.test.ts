import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { getPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { gitBinary } from '../src/index.js';

const run = promisify(execFile);
const DIST = fileURLToPath(new URL('../dist/index.bundle.js', import.meta.url));

describe('git-source: the history read beside the line pass runs at a lower priority', function () {
  this.timeout(60_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-priority-');
  });
  after(() => work.remove());

  it('gives its git log the niceness asked for, and the process its own priority otherwise', async () => {
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const repo = await createRepository(dir);
    await repo.commit({ message: 'One', date: 1_700_000_000, addLines: 3 });
    await repo.commit({ message: 'Two', date: 1_700_000_600, addLines: 2 });
    // git as Cadence runs it (CADENCE_GIT), through a script that notes, as each git ends, the
    // niceness of the process Cadence started (field 19 of /proc/<pid>/stat) and what it ran.
    const log = path.join(work.path, 'priorities.log');
    const wrapper = path.join(work.path, 'git');
    await writeFile(
      wrapper,
      `#!/bin/sh\n"${gitBinary()}" "$@"\ncode=$?\necho "$(cut -d ' ' -f 19 /proc/$$/stat) $*" >> "${log}"\nexit $code\n`,
    );
    await chmod(wrapper, 0o755);
    const script = path.join(work.path, 'read.mjs');
    await writeFile(
      script,
      [
        `import { readHistory } from ${JSON.stringify(pathToFileURL(DIST).href)};`,
        `const niceness = process.argv[3] ? { niceness: Number(process.argv[3]) } : {};`,
        `const { commits } = await readHistory(process.argv[2], { rev: 'HEAD', excludeFiles: [], ...niceness });`,
        `if (commits.length !== 2) process.exit(3);`,
      ].join('\n'),
    );
    const logPriorities = async (niceness?: number): Promise<number[]> => {
      await writeFile(log, '');
      await run(process.execPath, [script, dir, ...(niceness === undefined ? [] : [String(niceness)])], {
        env: { ...process.env, CADENCE_GIT: wrapper },
      });
      return (await readFile(log, 'utf8'))
        .split('\n')
        .filter((line) => / log -z --numstat /.test(line))
        .map((line) => Number(line.split(' ')[0]));
    };
    // 19, the lowest priority: any process may lower its children's priority that far.
    expect(await logPriorities(19)).to.deep.equal([19]);
    expect(await logPriorities()).to.deep.equal([getPriority()]);
  });
});
