import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createRepository, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

/**
 * A commit's subject and author name are whatever its writer typed. Through the real CLI, the
 * characters a terminal or a browser would act on (C0 and C1 controls, bidirectional overrides and
 * isolates) must not reach a text or HTML report; the words around them must.
 */
const CHARACTERS: readonly [string, string][] = [
  ['U+001B ESC', '\u001b'],
  ['U+0007 BEL', '\u0007'],
  ['U+000D CR', '\r'],
  ['U+007F DEL', '\u007f'],
  ['U+0085 NEL', '\u0085'],
  ['U+009B CSI', '\u009b'],
  ['U+009D OSC', '\u009d'],
  ['U+061C ALM', '\u061c'],
  ['U+200E LRM', '\u200e'],
  ['U+200F RLM', '\u200f'],
  ['U+202A LRE', '\u202a'],
  ['U+202D LRO', '\u202d'],
  ['U+202E RLO', '\u202e'],
  ['U+2066 LRI', '\u2066'],
  ['U+2067 RLI', '\u2067'],
  ['U+2068 FSI', '\u2068'],
  ['U+2069 PDI', '\u2069'],
];
const ALL = CHARACTERS.map(([, c]) => c).join('');

describe('reports written by cadence analyze leave out control and bidirectional characters', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: string;

  before(async () => {
    work = await makeTempDir('cadence-report-chars-');
    repo = path.join(work.path, 'repo');
    await mkdir(repo);
    const start = Date.UTC(2020, 0, 1) / 1000;
    // A commit big enough to be reported, so its subject and author reach the report.
    await createRepository(repo, [
      { message: 'Initial import', date: start, addLines: 5 },
      // The trailer flags it whatever the model says, and its quote reaches the report too.
      {
        message: `Add the parser ${ALL}]0;pwned${ALL} now\n\nCo-Authored-By: Claude <noreply@anthropic.com>`,
        date: start + 30,
        addLines: 3000,
        author: { name: `Mallory ${ALL} Example`, email: 'mallory@example.test' },
      },
    ]);
  });
  after(() => work.remove());

  for (const name of ['report.txt', 'report.html']) {
    it(`in ${name}`, async () => {
      const run = await runCadence(['analyze', '.', '-o', name], { cwd: repo });
      expect(run.code, run.stderr).to.equal(0);
      const report = await readFile(path.join(repo, name), 'utf8');
      for (const [label, character] of CHARACTERS)
        expect(report.includes(character), `${label} in ${name}`).to.equal(false);
      expect(report).to.contain('Add the parser');
      if (name.endsWith('.html')) expect(report).to.contain('Mallory').and.contain('Example');
    });
  }

  // Data formats lose nothing: the controls are written as escapes that read back as themselves.
  const BIDI_ONLY = CHARACTERS.filter(([label]) => /^U\+(061C|200|202|206)/.test(label));
  for (const name of ['report.json', 'report.yaml']) {
    it(`in ${name}, bidirectional controls escaped (\\u202e) and read back unchanged`, async () => {
      const run = await runCadence(['analyze', '.', '-o', name], { cwd: repo });
      expect(run.code, run.stderr).to.equal(0);
      const text = await readFile(path.join(repo, name), 'utf8');
      for (const [label, character] of BIDI_ONLY)
        expect(text.includes(character), `${label} raw in ${name}`).to.equal(false);
      expect(text).to.contain('\\u202e');
      const parsed = (name.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as { authors: { name: string }[] };
      expect(JSON.stringify(parsed)).to.contain(JSON.stringify(`Mallory ${ALL} Example`).slice(1, -1));
    });
  }

  it('on stdout without -o', async () => {
    const run = await runCadence(['analyze', '.'], { cwd: repo });
    expect(run.code, run.stderr).to.equal(0);
    for (const [label, character] of CHARACTERS)
      expect(run.stdout.includes(character), `${label} on stdout`).to.equal(false);
    expect(run.stdout).to.contain('Add the parser');
  });
});
