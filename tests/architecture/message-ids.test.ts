import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { CadencePlugin } from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const builtIn = async (name: string): Promise<CadencePlugin> =>
  (
    (await import(pathToFileURL(path.join(root, 'plugins', name, 'dist', 'index.js')).href)) as {
      default: CadencePlugin;
    }
  ).default;

const T0 = Date.parse('2025-03-10T08:00:00Z') / 1000;

/** Commits every repository strategy has something to say of: large, quick, attributed, automated. */
const commits = makeCommits([
  { at: T0, additions: 40 },
  { at: T0 + 20, additions: 3000, deletions: 2500 },
  { at: T0 + 40, additions: 900, subject: 'Add the parser', body: 'Co-authored-by: Claude <noreply@anthropic.com>' },
  {
    at: T0 + 3600,
    additions: 12,
    author: 'dependabot[bot]',
    email: '49699333+dependabot[bot]@users.noreply.github.com',
  },
]);

const page = `<html><body><h1>Guide</h1><h4>Jump</h4><img src="a.png"><a href="/x">click here</a>
<p>As an AI language model, I cannot browse. Let us delve into the tapestry of this realm.</p></body></html>`;

describe('built-in strategies name their messages by id (typed messageId)', () => {
  for (const name of ['velocity', 'timing', 'size', 'attribution']) {
    it(`${name}: every detection carries a messageId of its strategy's meta.messages`, async () => {
      const run = await runPlugin(await builtIn(name), { commits });
      expect(run.detections, 'the commits give it something to say').to.not.be.empty;
      for (const detection of run.detections)
        expect(detection.messageId, `${detection.strategy}: ${detection.message}`).to.be.a('string');
    });
  }

  it('the example third-party plugin (examples/cadence-plugin-file-drops): its detections carry a messageId', async () => {
    const example = (
      (await import(pathToFileURL(path.join(root, 'examples', 'cadence-plugin-file-drops', 'index.js')).href)) as {
        default: CadencePlugin;
      }
    ).default;
    const whole = (file: string, additions: number) => ({
      path: file,
      additions,
      deletions: 0,
      binary: false,
      excluded: false,
    });
    const drops = makeCommits([
      { at: T0, subject: 'Initial import', files: [whole('src/a.ts', 900)] },
      { at: T0 + 3600, subject: 'Add parser', files: [whole('src/parser.ts', 640)] },
      {
        at: T0 + 7200,
        subject: 'Add lexer and printer',
        files: [whole('src/lexer.ts', 500), whole('src/printer.ts', 400)],
      },
    ]);
    const run = await runPlugin(example, { commits: drops });
    expect(run.detectionsOf('file-drops').map((d) => d.messageId)).to.deep.equal(['oneFile', 'files']);
  });

  it('website-signature: every detection carries a messageId', async () => {
    const run = await runPlugin(await builtIn('website-signature'), { html: page });
    expect(run.detections, 'the page gives it something to say').to.not.be.empty;
    for (const detection of run.detections)
      expect(detection.messageId, `${detection.strategy}: ${detection.message}`).to.be.a('string');
  });
});
