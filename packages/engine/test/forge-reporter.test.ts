import { expect } from 'chai';
import { createHooks } from '../src/index.js';
import {
  type AnalysisContext,
  type AnalysisResult,
  type JobInfo,
  type ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import { tapForgeReporter, type ForgeReporter } from '@cadence-detect/forge-kit';

const jobOf = (forge: 'github' | 'gitlab' | null): JobInfo => ({
  id: `job-${forge}`,
  url: null,
  forge: forge ? { forge, repository: 'acme/app', sha: 'a'.repeat(40) } : null,
  deadline: Date.now() + 60_000,
});

describe('tapForgeReporter (plugin API 1.4)', () => {
  it('calls start, finish and fail for its own forge\u2019s jobs only, and records through the job\u2019s recorder', async () => {
    const hooks = createHooks();
    const calls: string[] = [];
    const recorded: ReportOutcome[] = [];
    const record = (outcome: ReportOutcome): void => void recorded.push(outcome);
    const reporter: ForgeReporter = {
      start: (job, rec) => {
        calls.push(`start ${job.id}`);
        rec({
          reporter: 'r',
          forge: 'github',
          kind: 'commit-status',
          target: job.id,
          state: 'pending',
          ok: true,
          error_code: null,
          at: new Date(0).toISOString(),
        });
      },
      finish: async (job) => void calls.push(`finish ${job.id}`),
      fail: async (job, error) => void calls.push(`fail ${job.id} ${error.code}`),
    };
    tapForgeReporter(hooks, 'r', 'github', reporter);
    for (const forge of ['github', 'gitlab', null] as const) {
      const job = jobOf(forge);
      await hooks.jobStart.promise({
        job,
        request: { kind: 'repository', url: 'https://example.test/acme/app.git' },
        logger: console as never,
        recordReport: record,
      });
      await hooks.report.promise({} as AnalysisResult, { job, recordReport: record } as unknown as AnalysisContext);
      await hooks.jobFailed.promise({
        job,
        error: { code: 'ERR_CANCELLED', message: 'cancelled' },
        logger: console as never,
        recordReport: record,
      });
    }
    expect(calls).to.deep.equal(['start job-github', 'finish job-github', 'fail job-github ERR_CANCELLED']);
    expect(recorded.map((r) => r.state)).to.deep.equal(['pending']);
  });
});
