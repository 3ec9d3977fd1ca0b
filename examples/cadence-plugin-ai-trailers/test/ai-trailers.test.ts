import { expect } from 'chai';
import { makeCommits, runPlugin } from '@cadence/plugin-testkit';
import plugin, { findAttribution } from '../index.js';

const T0 = Date.parse('2025-02-03T10:00:00Z') / 1000;
const hours = (n: number): number => T0 + n * 3600;

describe('cadence-plugin-ai-trailers', () => {
  it('flags Co-authored-by trailers that name an assistant, and only those', async () => {
    const commits = makeCommits([
      { at: hours(0), subject: 'Initial import' },
      { at: hours(1), subject: 'Add parser', body: '\nCo-authored-by: Claude <noreply@anthropic.com>' },
      { at: hours(2), subject: 'Fix docs', body: '\nCo-authored-by: Grace Hopper <grace@example.com>' },
      { at: hours(3), subject: 'Refactor', body: 'Co-Authored-By: GitHub Copilot <copilot@github.com>' },
    ]);
    const run = await runPlugin(plugin, { commits });
    expect(run.detectionsOf('ai-trailers').map((d) => d.commit)).to.deep.equal([commits[1]!.hash, commits[3]!.hash]);
    expect(run.strategy('ai-trailers')).to.include({ detected: true, detections: 2, error: null });
  });

  it('flags "Generated with" footers and aider-prefixed subjects', () => {
    expect(findAttribution('Add CLI', '\n\n🤖 Generated with [Claude Code](https://claude.ai/code)')?.kind).to.equal('footer');
    expect(findAttribution('aider: rename module', '')?.kind).to.equal('prefix');
    expect(findAttribution('Generated files', 'Regenerated with protoc')).to.equal(null);
  });

  it('leaves ordinary human messages alone', async () => {
    const commits = makeCommits([
      { at: hours(0), subject: 'Bump version', body: 'Signed-off-by: Linus <l@example.com>' },
      { at: hours(5), subject: 'Mention cursor position in the docs' },
    ]);
    expect((await runPlugin(plugin, { commits })).detections).to.have.length(0);
  });
});
