import { expect } from 'chai';
import { HttpError } from '@cadence-detect/errors';
import {
  isSingleCommitPush,
  lazyForgeReporter,
  pushOutcome,
  pushRange,
  type AnalysisResult,
  type ForgeReporter,
  type JobInfo,
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

describe('forge helpers (plugin API 1.6)', () => {
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
