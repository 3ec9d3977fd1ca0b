import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

const T0 = Date.UTC(2025, 0, 1, 12) / 1000;

/** The lines at HEAD in the real CLI process: the text report's lines, and --no-lines. */
describe('cadence analyze: code at HEAD and --no-lines', function () {
  this.timeout(60_000);
  let work: TempDir;
  let dir: string;

  before(async () => {
    work = await makeTempDir('cadence-cli-lines-');
    dir = path.join(work.path, 'repo');
    await mkdir(dir);
    await createRepository(dir, [
      { message: 'Initial import', date: T0, files: { 'a.txt': 'one\ntwo\nthree\n' } },
      { message: 'Add the helper\n\nCo-authored-by: Claude <noreply@anthropic.com>\n', date: T0 + 86_400, files: { 'b.txt': 'x\ny\n' } },
    ]);
  });
  after(() => work.remove());

  it('prints the share of the code at HEAD and how it lasted; --json carries lines and survival', async () => {
    const text = await runCadence(['analyze', dir], { cwd: work.path });
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(/^Code at HEAD: \d+% assistant-made \(2 explicit \+ \d+ inferred of 5 lines\)$/m);
    expect(text.stdout).to.match(/^Does it last: assistant lines 100% surviving, 0% reworked within 14 days; human /m);
    const json = await runCadence(['analyze', dir, '--json'], { cwd: work.path });
    const result = JSON.parse(json.stdout) as { lines: { counted: number; explicit: number }; survival: { assistant: { added: number } } };
    expect(result.lines).to.deep.include({ counted: 5, explicit: 2 });
    expect(result.survival.assistant.added).to.equal(2);
  });

  it('--no-lines: no lines in the result, and the report says why', async () => {
    const json = await runCadence(['analyze', dir, '--json', '--no-lines'], { cwd: work.path });
    expect(json.code, json.stderr).to.equal(0);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).to.not.have.property('lines');
    expect(result.lines_skipped).to.equal('not asked for (--no-lines)');
    const text = await runCadence(['analyze', dir, '--no-lines'], { cwd: work.path });
    expect(text.stdout).to.contain('Code at HEAD: not counted (not asked for (--no-lines))');
  });
});
