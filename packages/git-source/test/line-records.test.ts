import { expect } from 'chai';
import { markedLines, parseTraceRecord } from '../src/index.js';

describe('git-source: line records (git-ai v3 authorship logs, Agent Trace records)', () => {
  it('reads an Agent Trace record: ai and mixed ranges are the assistant\u2019s, a range\u2019s contributor overrides its conversation\u2019s', () => {
    const revision = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0';
    const parsed = parseTraceRecord({
      version: '0.1.0',
      id: 'i',
      timestamp: 't',
      vcs: { type: 'git', revision: revision.toUpperCase() },
      tool: { name: 'cursor', version: '2.4.0' },
      files: [
        {
          path: './src/p.ts',
          conversations: [
            {
              contributor: { type: 'ai', model_id: 'anthropic/claude' },
              ranges: [
                { start_line: 42, end_line: 67 },
                { start_line: 70, end_line: 71, contributor: { type: 'human' } },
              ],
            },
            { contributor: { type: 'mixed' }, ranges: [{ start_line: 1, end_line: 1 }] },
            { contributor: { type: 'unknown' }, ranges: [{ start_line: 2, end_line: 3 }] },
          ],
        },
      ],
    });
    expect(parsed).to.deep.equal({
      revision,
      byPath: new Map([
        [
          'src/p.ts',
          [
            { start: 42, end: 67, assistant: 'cursor' },
            { start: 1, end: 1, assistant: 'cursor' },
          ],
        ],
      ]),
    });
  });

  it('skips a malformed Agent Trace record, with the reason', () => {
    const ok = { version: '0.1.0', files: [] };
    expect(parseTraceRecord('x')).to.equal('not a JSON object');
    expect(parseTraceRecord({ ...ok, version: '2.0' })).to.equal('version "2.0" is not 0.x');
    expect(parseTraceRecord({ version: '0.1.0' })).to.equal('no files array');
    expect(parseTraceRecord({ ...ok, vcs: { type: 'git' } })).to.equal('vcs has no revision');
    expect(parseTraceRecord({ ...ok, files: [{ path: 'a' }] })).to.equal('a file without a path or conversations');
    expect(
      parseTraceRecord({
        ...ok,
        files: [
          { path: 'a', conversations: [{ contributor: { type: 'robot' }, ranges: [{ start_line: 1, end_line: 1 }] }] },
        ],
      }),
    ).to.equal('contributor.type "robot" is not ai, mixed, human or unknown');
    expect(
      parseTraceRecord({
        ...ok,
        files: [
          { path: 'a', conversations: [{ contributor: { type: 'ai' }, ranges: [{ start_line: 3, end_line: 2 }] }] },
        ],
      }),
    ).to.equal('a range of a has no valid start_line and end_line');
  });
});

describe('git-source: markedLines over many single-line ranges', () => {
  it('visits a few ranges per blame group, not every range of the file (every other line noted, 100k lines)', () => {
    const ranges = Array.from({ length: 50_000 }, (_, i) => ({ start: 2 * i + 1, end: 2 * i + 1, assistant: 'a' }));
    let visits = 0;
    // Counts every range read: the cost of a query, measured in steps rather than seconds.
    const counted = new Proxy(ranges, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) visits++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const records = {
      byCommit: new Map([['c'.repeat(40), new Map([['big.txt', counted]])]]),
      gitAi: 1,
      agentTrace: 0,
      skipped: [],
      skippedCount: 0,
    };
    let lines = 0;
    const groups = 50_000;
    for (let g = 0; g < groups; g++) lines += markedLines(records, 'c'.repeat(40), 'big.txt', 2 * g + 1, 2)!.lines;
    expect(lines).to.equal(50_000);
    expect(visits / groups).to.be.below(40);
  });
});
