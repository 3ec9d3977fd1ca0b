import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { HttpError } from '@cadence-detect/errors';
import { type AnalysisResult, type JobInfo } from '@cadence-detect/plugin-sdk';
import {
  hubSignatureKey,
  isSingleCommitPush,
  requireHubSignature,
  lazyForgeReporter,
  pushOutcome,
  pushRange,
  type ForgeReporter,
} from '../src/index.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);
const job: JobInfo = {
  id: 'j',
  url: null,
  forge: { forge: 'tea', repository: 'acme/app', sha: A },
  deadline: Date.now() + 60_000,
};

describe('forge helpers', () => {
  it('reads a push\u2019s ref, before and after as GitHub, GitLab and Gitea send them', () => {
    expect(pushRange({ ref: 'refs/heads/main', before: B, after: A })).to.deep.equal({
      branch: 'main',
      before: B,
      after: A,
    });
    expect(pushRange({ ref: 'refs/heads/new', before: ZERO, after: A })).to.deep.equal({
      branch: 'new',
      before: null,
      after: A,
    });
    expect(pushRange({ ref: 'refs/heads/main', before: B, after: ZERO })).to.deep.equal({ ignored: 'branch deleted' });
    expect(pushRange({ ref: 'refs/tags/v1', before: ZERO, after: A })).to.deep.equal({ ignored: 'tag push' });
    for (const [payload, field] of [
      [{ after: 'main' }, 'after'],
      [{ after: A, before: 'HEAD~1' }, 'before'],
    ] as const) {
      let refused: unknown = null;
      try {
        pushRange(payload);
      } catch (error) {
        refused = error;
      }
      expect(refused).to.be.instanceOf(HttpError);
      expect((refused as HttpError).status).to.equal(400);
      expect((refused as HttpError).details).to.deep.include({ field });
    }
  });

  it('calls a push of one commit onto an existing branch a squash candidate, and carries it into the request', () => {
    const range = { branch: 'main', before: B, after: A };
    expect(isSingleCommitPush({ commits: [{}] }, range)).to.equal(true);
    expect(isSingleCommitPush({ commits: [{}, {}] }, range)).to.equal(false);
    expect(isSingleCommitPush({ commits: [{}] }, { ...range, before: null })).to.equal(false);
    const outcome = pushOutcome(
      {
        cloneUrl: 'https://tea.example/acme/app.git',
        repo: 'acme/app',
        ...range,
        forge: job.forge,
        squashCandidate: true,
      },
      'd-1',
    );
    expect(outcome).to.deep.equal({
      kind: 'push',
      push: {
        repo: 'acme/app',
        forge: job.forge,
        delivery: 'd-1',
        request: {
          kind: 'repository',
          url: 'https://tea.example/acme/app.git',
          branch: 'main',
          range: { before: B, after: A },
          squash_candidate: true,
        },
      },
    });
  });

  it('loads a lazy reporter on its first job, keeps start before finish, and says once when it cannot load', async () => {
    const calls: string[] = [];
    let loads = 0;
    // The reporter's module loads only once the test has called start and finish.
    let loaded: () => void = () => undefined;
    const loading = new Promise<void>((resolve) => (loaded = resolve));
    const real: ForgeReporter = {
      start: () => void calls.push('start'),
      finish: async () => void calls.push('finish'),
      fail: async () => void calls.push('fail'),
    };
    const lazy = lazyForgeReporter(
      async () => {
        loads++;
        await loading;
        return real;
      },
      () => calls.push('load error'),
    );
    expect(loads).to.equal(0);
    lazy.start(job, () => undefined);
    const finished = lazy.finish(job, {} as AnalysisResult, () => undefined);
    loaded();
    await finished;
    await lazy.fail(job, { code: 'ERR_CANCELLED', message: 'x' }, () => undefined);
    expect(calls).to.deep.equal(['start', 'finish', 'fail']);
    expect(loads).to.equal(1);

    const errors: unknown[] = [];
    const broken = lazyForgeReporter(
      async () => {
        throw new Error('no module');
      },
      (error) => errors.push(error),
    );
    broken.start(job, () => undefined);
    await broken.finish(job, {} as AnalysisResult, () => undefined);
    expect(errors).to.have.length(1);
  });
});

describe('requireHubSignature: one check of a signed body, with the words a person acts on', () => {
  const secret = { key: hubSignatureKey('the-webhook-secret-0123') };
  const body = Buffer.from('{"ref":"refs/heads/main"}');
  const hex = createHmac('sha256', 'the-webhook-secret-0123').update(body).digest('hex');
  const delivery = (headers: Record<string, string>) => ({ body, header: (name: string) => headers[name] ?? '' });
  const refusal = (headers: Record<string, string>, bareHex = false) => {
    try {
      requireHubSignature(delivery(headers), secret, { header: 'X-Sig', forge: 'Acme', bareHex });
      return null;
    } catch (error) {
      expect(error).to.be.instanceOf(HttpError);
      return { status: (error as HttpError).status, message: (error as Error).message };
    }
  };

  it('passes a matching signature, prefixed or bare as the forge sends it', () => {
    expect(refusal({ 'x-sig': `sha256=${hex}` })).to.equal(null);
    expect(refusal({ 'x-sig': hex }, true)).to.equal(null);
  });

  it('refuses a missing, wrong, unprefixed or doubly prefixed signature with 401, saying which', () => {
    expect(refusal({})).to.deep.equal({
      status: 401,
      message:
        'No X-Sig header: set the webhook\u2019s secret on Acme to the server\u2019s webhook secret (CADENCE_WEBHOOK_SECRET)',
    });
    const mismatch = refusal({ 'x-sig': `sha256=${'0'.repeat(64)}` });
    expect(mismatch).to.deep.include({ status: 401 });
    expect(mismatch!.message).to.contain('the X-Sig header does not match');
    expect(refusal({ 'x-sig': hex })).to.deep.include({ status: 401 });
    expect(refusal({ 'x-sig': `sha256=${hex}` }, true)).to.deep.include({ status: 401 });
  });
});
