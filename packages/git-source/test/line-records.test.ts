import { expect } from 'chai';
import { markedLines, parseAuthorshipLog, parseTraceRecord } from '../src/index.js';

const metadata = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ schema_version: 'authorship/3.0.0', base_commit_sha: '', prompts: {}, ...extra }, null, 2);

describe('git-source: line records (git-ai v3 authorship logs, Agent Trace records)', () => {
  it('reads sessions, legacy prompt keys and quoted paths; people (h_ keys) mark nothing', () => {
    const log = [
      '"src/my file.rs"',
      '  s_c9883b05a2487d::t_9f8e7d6c5b4a32 1-10,15-20',
      '  h_31dce776f88375 42-50',
      'src/lib.rs',
      '  d46277b929576d9f 7,97-99',
      '  e61c0a4 1',
      '---',
      metadata({
        sessions: { s_c9883b05a2487d: { agent_id: { tool: 'cursor', id: 'x', model: 'm' }, human_author: null } },
        prompts: { d46277b929576d9f: { agent_id: { tool: 'claude', id: 'y', model: 'm' } } },
      }),
    ].join('\n');
    const parsed = parseAuthorshipLog(log);
    expect(parsed).to.be.instanceOf(Map);
    const byPath = Object.fromEntries(parsed as Map<string, unknown>);
    expect(byPath).to.deep.equal({
      'src/my file.rs': [
        { start: 1, end: 10, assistant: 'cursor' },
        { start: 15, end: 20, assistant: 'cursor' },
      ],
      'src/lib.rs': [
        { start: 7, end: 7, assistant: 'claude' },
        { start: 97, end: 99, assistant: 'claude' },
        { start: 1, end: 1, assistant: null },
      ],
    });
  });

  it('an empty attestation is a log that names no line (its commit is all its author\u2019s)', () => {
    expect(parseAuthorshipLog(`---\n${metadata()}`)).to.deep.equal(new Map());
  });

  it('skips what is not a v3 log, with the reason', () => {
    expect(parseAuthorshipLog('src/a.rs\n  s_a::t_b 1-2\n')).to.equal('no "---" line before the metadata');
    expect(parseAuthorshipLog('---\n{"schema_version": "authorship/3.0.0", ')).to.equal('its metadata is not JSON');
    expect(parseAuthorshipLog('---\n[]')).to.equal('its metadata is not a JSON object');
    expect(parseAuthorshipLog(`---\n${JSON.stringify({ schema_version: 'authorship/0.0.1' })}`)).to.equal(
      'schema_version "authorship/0.0.1" is not authorship/3.x',
    );
    expect(parseAuthorshipLog(`a.rs\n  s_a::t_b 5-2\n---\n${metadata()}`)).to.equal('line ranges "5-2" are malformed');
    expect(parseAuthorshipLog(`a.rs\n  s_a::t_b 0\n---\n${metadata()}`)).to.equal('line ranges "0" are malformed');
    expect(parseAuthorshipLog(`a.rs\n  s_a::t_b 1-99999999999\n---\n${metadata()}`)).to.equal(
      'line ranges "1-99999999999" are malformed',
    );
    expect(parseAuthorshipLog(`  s_a::t_b 1\n---\n${metadata()}`)).to.match(/^an attestation line is not/);
  });

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
