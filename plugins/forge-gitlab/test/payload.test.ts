import { expect } from 'chai';
import { HttpError } from '@cadence-detect/errors';
import { gitlabMergeRequest, gitlabPush, isGitlabPath } from '../src/index.js';

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

describe('GitLab webhook payloads: what a forge\u2019s names and numbers may be', () => {
  it('takes GitLab paths by GitLab\u2019s grammar: groups and a project, no dot segment', () => {
    for (const good of ['acme/widget', 'group/sub/project', 'a_b/c.d', 'acme/w'])
      expect(isGitlabPath(good), good).to.equal(true);
    for (const bad of ['../..', 'acme/..', 'acme/.', 'acme', 'acme/-x', 'acme/x.', 'acme//x', 'acme/x y'])
      expect(isGitlabPath(bad), bad).to.equal(false);
  });

  it('reports a push whose path is acme/.. nowhere (no forge target)', () => {
    const gitlab = gitlabPush({
      before: BEFORE,
      after: HEAD,
      ref: 'refs/heads/main',
      project: { id: 7, path_with_namespace: 'acme/..', git_http_url: 'https://gitlab.example/acme/x.git' },
    });
    expect(gitlab.kind === 'push' && gitlab.push.forge).to.equal(null);
  });

  it('refuses a merge request iid above 2^31-1 with 400 at intake, naming the field', () => {
    const mergeRequest = (iid: number) => ({
      object_attributes: { action: 'open', state: 'opened', iid, last_commit: { id: HEAD }, target_branch: 'main' },
      project: { id: 7, path_with_namespace: 'acme/widget', git_http_url: 'https://gitlab.example/acme/widget.git' },
    });
    expect(refusal(() => gitlabMergeRequest(mergeRequest(10 ** 15), { drafts: false })).details).to.deep.include({
      field: 'object_attributes.iid',
    });
  });
});
