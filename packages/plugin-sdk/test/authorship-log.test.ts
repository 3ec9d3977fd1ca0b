import { expect } from 'chai';
import { parseAuthorshipLog, type AuthorshipLog } from '../src/index.js';

const metadata = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ schema_version: 'authorship/3.0.0', base_commit_sha: '', prompts: {}, ...extra }, null, 2);

const parsed = (text: string): AuthorshipLog => {
  const log = parseAuthorshipLog(text);
  if (typeof log === 'string') throw new Error(`not parsed: ${log}`);
  return log;
};

describe('plugin-sdk: the Git AI authorship log, one parser for commits and lines', () => {
  it('reads sessions, legacy prompt keys and quoted paths; people (h_ keys) mark nothing', () => {
    const log = parsed(
      [
        '"src/my file.rs"',
        '  s_c9883b05a2487d::t_9f8e7d6c5b4a32 1-10,15-20',
        '  h_31dce776f88375 42-50',
        'src/lib.rs',
        '  d46277b929576d9f 7,97-99',
        '  e61c0a4 1',
        '---',
        metadata({
          sessions: { s_c9883b05a2487d: { agent_id: { tool: 'cursor', id: 'x', model: 'm1' }, human_author: null } },
          prompts: { d46277b929576d9f: { agent_id: { tool: 'claude', id: 'y', model: 'm2' } } },
        }),
      ].join('\n'),
    );
    expect(Object.fromEntries(log.byPath)).to.deep.equal({
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
    expect(log).to.include({ aiLines: 21, humanLines: 9, files: 2 });
    expect(log.tools).to.deep.equal(['cursor', 'claude']);
    expect(log.models).to.deep.equal(['m1', 'm2']);
  });

  it('counts an early log\u2019s UUID and named keys as AI sessions, as the line counts do', () => {
    const log = parsed(
      [
        'app.py',
        '  0b9a6f2e-4c1d-4e8a-9f3b-2d7c5e1a8b64 1-4',
        '  ai_agent 10-11',
        '---',
        metadata({ prompts: { '0b9a6f2e-4c1d-4e8a-9f3b-2d7c5e1a8b64': { agent_id: { tool: 'cursor' } } } }),
      ].join('\n'),
    );
    expect(log.aiLines).to.equal(6);
    expect(log.tools).to.deep.equal(['cursor']);
  });

  it('an empty attestation is a log that names no line (its commit is all its author\u2019s)', () => {
    expect(parsed(`---\n${metadata()}`)).to.deep.include({ aiLines: 0, files: 0, tools: [] });
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
});
