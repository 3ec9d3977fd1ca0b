import { expect } from 'chai';
import { createRequire } from 'node:module';
import { HttpError } from '@cadence-detect/errors';
import { githubPullRequest, githubPush, isGithubFullName } from '../src/index.js';

const HEAD = 'a'.repeat(40);
const BEFORE = 'b'.repeat(40);

function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected a 400');
}

describe('GitHub webhook payloads: what a forge\u2019s names and numbers may be', () => {
  it('takes GitHub owner/name by GitHub\u2019s grammar: never a dot segment, a slash too many or an empty part', () => {
    for (const good of ['acme/widget', 'octo-cat/.github', 'a/b', 'acme_emu/x.y_z-1', 'A1/...x'])
      expect(isGithubFullName(good), good).to.equal(true);
    for (const bad of [
      '../..',
      'acme/..',
      '../widget',
      'acme/.',
      './widget',
      'acme/widget/extra',
      'acme',
      '/widget',
      'acme/',
      '-acme/widget',
      'ac.me/widget',
      'acme/wid%2fget',
    ]) {
      expect(isGithubFullName(bad), bad).to.equal(false);
    }
  });

  it('reports a push whose full_name is ../.. nowhere (no forge target), and still analyses it', () => {
    const require = createRequire(import.meta.url);
    const events = require('@octokit/webhooks-examples') as { name: string; examples: Record<string, unknown>[] }[];
    const push = structuredClone(events.find((e) => e.name === 'push')!.examples[0]!) as Record<string, unknown> & {
      repository: Record<string, unknown>;
    };
    Object.assign(push, { before: BEFORE, after: HEAD, ref: 'refs/heads/main' });
    push.repository.full_name = '../..';
    const outcome = githubPush(push);
    expect(outcome.kind).to.equal('push');
    expect(outcome.kind === 'push' && outcome.push.forge).to.equal(null);
    push.repository.full_name = 'acme/widget';
    const fine = githubPush(push);
    expect(fine.kind === 'push' && fine.push.forge?.repository).to.equal('acme/widget');
  });

  it('refuses a request number above 2^31-1 with 400 at intake, naming the field', () => {
    const pullRequest = (number: number) => ({
      action: 'opened',
      number,
      pull_request: {
        number,
        state: 'open',
        head: { sha: HEAD },
        base: { ref: 'main', repo: { clone_url: 'https://github.com/acme/widget.git', full_name: 'acme/widget' } },
      },
    });
    const refused = refusal(() => githubPullRequest(pullRequest(10 ** 15), { drafts: false }));
    expect(refused.status).to.equal(400);
    expect(refused.details).to.deep.include({ field: 'pull_request.number' });
    expect(refusal(() => githubPullRequest(pullRequest(2 ** 31), { drafts: false })).status).to.equal(400);
    const accepted = githubPullRequest(pullRequest(2 ** 31 - 1), { drafts: false });
    expect(accepted.kind === 'push' && accepted.push.ref).to.equal(`refs/pull/${2 ** 31 - 1}/head`);
  });
});
