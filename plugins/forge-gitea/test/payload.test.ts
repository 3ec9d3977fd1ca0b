import { expect } from 'chai';
import { giteaPullRequest, giteaPush } from '../src/index.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const repository = { full_name: 'acme/human', clone_url: 'https://gitea.example.test/acme/human.git' };

describe('gitea payloads', () => {
  it('reads a push range and its clone URL; ignores a tag push and a branch deletion', () => {
    expect(giteaPush({ ref: 'refs/heads/main', before: A, after: B, repository })).to.deep.include({ kind: 'push' });
    const push = giteaPush({ ref: 'refs/heads/main', before: A, after: B, repository });
    expect(push.kind === 'push' && push.push).to.include({
      cloneUrl: repository.clone_url,
      repo: 'acme/human',
      branch: 'main',
      before: A,
      after: B,
    });
    expect(giteaPush({ ref: 'refs/tags/v1', before: A, after: B, repository })).to.deep.equal({
      kind: 'ignored',
      reason: 'tag push',
    });
    expect(giteaPush({ ref: 'refs/heads/main', before: A, after: '0'.repeat(40), repository })).to.deep.equal({
      kind: 'ignored',
      reason: 'branch deleted',
    });
    expect(() => giteaPush({ ref: 'refs/heads/main', before: A, after: B, repository: {} })).to.throw(
      /repository\.clone_url/,
    );
  });

  it('reads a pull request opened or synchronized as its head ref; skips drafts unless asked', () => {
    const payload = (action: string, draft = false) => ({
      action,
      number: 4,
      pull_request: { number: 4, state: 'open', draft, head: { sha: B }, base: { ref: 'main', repo: repository } },
      repository,
    });
    const opened = giteaPullRequest(payload('synchronized'), { drafts: false });
    expect(opened.kind === 'push' && opened.push).to.include({
      ref: 'refs/pull/4/head',
      branch: 'main',
      after: B,
      before: null,
    });
    expect(giteaPullRequest(payload('edited'), { drafts: false }).kind).to.equal('ignored');
    expect(giteaPullRequest(payload('opened', true), { drafts: false }).kind).to.equal('ignored');
    expect(giteaPullRequest(payload('opened', true), { drafts: true }).kind).to.equal('push');
  });
});
