import { expect } from 'chai';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import plugin, { droppedFiles } from '../index.js';

const T0 = Date.parse('2025-02-03T10:00:00Z') / 1000;
const hours = (n: number): number => T0 + n * 3600;
const file = (path: string, additions: number, deletions = 0) => ({
  path,
  additions,
  deletions,
  binary: false,
  excluded: false,
});

describe('cadence-plugin-file-drops', () => {
  it('flags a commit that adds a whole file of at least min_lines lines, and says which', async () => {
    const commits = makeCommits([
      { at: hours(0), subject: 'Initial import', files: [file('src/a.ts', 900)] },
      { at: hours(1), subject: 'Add parser', files: [file('src/parser.ts', 640), file('src/index.ts', 2, 1)] },
      { at: hours(2), subject: 'Rewrite lexer', files: [file('src/lexer.ts', 700, 650)] },
      { at: hours(3), subject: 'Small helper', files: [file('src/util.ts', 40)] },
    ]);
    const run = await runPlugin(plugin, { commits });
    const detections = run.detectionsOf('file-drops');
    // The root commit imports a tree, the rewrite deletes as much as it adds, the helper is small.
    expect(detections.map((d) => d.commit)).to.deep.equal([commits[1]!.hash]);
    expect(detections[0]!.message).to.equal('1 file added whole, the largest src/parser.ts (640 lines, min_lines 300)');
    expect(detections[0]!.evidence).to.equal('inferred');
  });

  it('reads min_lines from its options, and the host refuses options its schema does not allow', async () => {
    const commits = makeCommits([{ at: hours(0) }, { at: hours(1), files: [file('src/b.ts', 150)] }]);
    expect((await runPlugin(plugin, { commits })).detectionsOf('file-drops')).to.have.length(0);
    expect(
      (await runPlugin(plugin, { commits }, { options: { min_lines: 100 } })).detectionsOf('file-drops'),
    ).to.have.length(1);
    await runPlugin(plugin, { commits }, { options: { min_lines: 0 } }).then(
      () => expect.fail('min_lines 0 was accepted'),
      (error: Error) => expect(error.message).to.match(/min_lines/),
    );
  });

  it('leaves excluded and binary files out', () => {
    const [, commit] = makeCommits([
      { at: hours(0) },
      {
        at: hours(1),
        files: [
          { ...file('vendor/lib.js', 5000), excluded: true },
          { ...file('logo.png', 0), binary: true },
        ],
      },
    ]);
    expect(droppedFiles(commit!, 300)).to.deep.equal([]);
  });
});
