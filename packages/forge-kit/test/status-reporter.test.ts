import { expect } from 'chai';
import { type AnalysisResult, type JobInfo, type PluginLogger, type ReportOutcome } from '@cadence-detect/plugin-sdk';
import { ForgeHttpError, statusReporter } from '../src/index.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as PluginLogger;
const job = (forge: string, url: string | null = 'https://cadence.example.test/jobs/j1'): JobInfo =>
  ({
    id: `job-${forge}-${Math.random()}`,
    forge: { forge, repository: 'team/app', sha: 'c'.repeat(40) },
    deadline: Date.now() + 10_000,
    url,
  }) as unknown as JobInfo;
const result = (assessment: string) =>
  ({
    source_type: 'git',
    assessment,
    overall_score: 0.5,
    ai_share: 0.4,
    suspicions: [],
    scored_commits: 3,
  }) as unknown as AnalysisResult;

/** A reporter over a forge that records each status call (state, description) and answers as told. */
function forge(options: { refuse?: number; comment?: 'none' | 'created' | 'fail'; cannotPost?: string | null } = {}) {
  const calls: { state: string; description: string }[] = [];
  const reporter = statusReporter({
    reporter: 'report-acme',
    forge: 'acme',
    logger,
    failOn: 'suspicious',
    states: { pending: 'RUNNING', success: 'OK', failure: 'BAD', error: 'BROKEN', cancelled: 'HALTED' },
    statusKind: 'build-status',
    accepts: (j) => j.forge?.repository === 'team/app',
    cannotPost: () => options.cannotPost ?? null,
    postStatus: async (_job, state, description) => {
      calls.push({ state, description });
      if (options.refuse) throw new ForgeHttpError(options.refuse, null, `Acme answered ${options.refuse}`);
    },
    ...(options.comment
      ? {
          comment: {
            kind: 'pull-request-comment',
            failedState: 'comment',
            post: async (_job, _result, _signal, target) => {
              target('team/app#4');
              if (options.comment === 'fail') throw new ForgeHttpError(403, null, 'Acme answered 403');
              return options.comment as 'none' | 'created';
            },
          },
        }
      : {}),
  });
  return { reporter, calls };
}

async function run(
  reporter: ReturnType<typeof forge>['reporter'],
  j: JobInfo,
  end: { result: AnalysisResult } | { error: string },
): Promise<ReportOutcome[]> {
  const outcomes: ReportOutcome[] = [];
  const record = (o: ReportOutcome) => outcomes.push(o);
  reporter.start(j, record);
  if ('result' in end) await reporter.finish(j, end.result, record);
  else await reporter.fail(j, { code: end.error, message: end.error }, record);
  return outcomes;
}

describe('statusReporter: one flow for forges that report by status', () => {
  it('posts the pending state, then the verdict by fail-on, in that order, with the forge\u2019s words', async () => {
    const passing = forge();
    const outcomes = await run(passing.reporter, job('acme'), { result: result('clean') });
    expect(passing.calls.map((c) => c.state)).to.deep.equal(['RUNNING', 'OK']);
    expect(passing.calls[1]!.description).to.match(/^clean: score 0\.50/);
    expect(outcomes.map((o) => [o.kind, o.state, o.ok])).to.deep.equal([
      ['build-status', 'RUNNING', true],
      ['build-status', 'OK', true],
    ]);
    const failing = forge();
    await run(failing.reporter, job('acme'), { result: result('likely_ai_generated') });
    expect(failing.calls.map((c) => c.state)).to.deep.equal(['RUNNING', 'BAD']);
  });

  it('turns a failed job into the error state, and a cancelled one into the cancelled state', async () => {
    const broken = forge();
    await run(broken.reporter, job('acme'), { error: 'ERR_CLONE_FAILED' });
    expect(broken.calls.map((c) => c.state)).to.deep.equal(['RUNNING', 'BROKEN']);
    expect(broken.calls[1]!.description).to.equal('Cadence could not analyze this push: ERR_CLONE_FAILED');
    const halted = forge();
    await run(halted.reporter, job('acme'), { error: 'ERR_CANCELLED' });
    expect(halted.calls.map((c) => c.state)).to.deep.equal(['RUNNING', 'HALTED']);
  });

  it('leaves other forges\u2019 jobs, and jobs it does not accept, alone', async () => {
    const other = forge();
    expect(await run(other.reporter, job('github'), { result: result('clean') })).to.deep.equal([]);
    const unaccepted = job('acme');
    (unaccepted.forge as { repository: string }).repository = 'someone/else';
    expect(await run(other.reporter, unaccepted, { result: result('clean') })).to.deep.equal([]);
    expect(other.calls).to.deep.equal([]);
  });

  it('records a refusal with its code at once, and a status it cannot post with the reason, calling nothing', async () => {
    const refused = forge({ refuse: 401 });
    const outcomes = await run(refused.reporter, job('acme'), { result: result('clean') });
    expect(outcomes.map((o) => [o.ok, o.error_code])).to.deep.equal([
      [false, 'ERR_FORGE_AUTH'],
      [false, 'ERR_FORGE_AUTH'],
    ]);
    expect(refused.calls).to.have.length(2);
    const unlinked = forge({ cannotPost: 'needs a link' });
    const said = await run(unlinked.reporter, job('acme', null), { result: result('clean') });
    expect(said.map((o) => [o.ok, o.reason])).to.deep.equal([
      [false, 'needs a link'],
      [false, 'needs a link'],
    ]);
    expect(unlinked.calls).to.deep.equal([]);
  });

  it('writes the comment after the verdict, recording it on the request it found; no request, no record', async () => {
    const created = await run(forge({ comment: 'created' }).reporter, job('acme'), { result: result('clean') });
    expect(created.at(-1)).to.include({ kind: 'pull-request-comment', state: 'created', target: 'team/app#4' });
    const none = await run(forge({ comment: 'none' }).reporter, job('acme'), { result: result('clean') });
    expect(none.map((o) => o.kind)).to.deep.equal(['build-status', 'build-status']);
    const failed = await run(forge({ comment: 'fail' }).reporter, job('acme'), { result: result('clean') });
    expect(failed.at(-1)).to.include({
      state: 'comment',
      ok: false,
      error_code: 'ERR_FORGE_AUTH',
      target: 'team/app#4',
    });
  });
});
