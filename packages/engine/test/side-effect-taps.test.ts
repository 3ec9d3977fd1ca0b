import { expect } from 'chai';
import { createHooks } from '../src/index.js';
import { isolateSideEffectTaps } from '../src/separate-taps.js';
import type { AnalysisContext, AnalysisResult, JobInfo, ReportOutcome } from '@cadence-detect/plugin-sdk';

const job: JobInfo = {
  id: 'job-1',
  url: null,
  forge: { forge: 'github', repository: 'acme/app', sha: 'b'.repeat(40) },
  deadline: Date.now() + 60_000,
};

function quietLog() {
  const lines: string[] = [];
  const log = {
    debug: () => undefined,
    info: () => undefined,
    error: () => undefined,
    warn: (message: string, fields?: Record<string, unknown>) =>
      void lines.push(`${message} ${JSON.stringify(fields)}`),
    child: () => log,
  };
  return { log: log as never, lines };
}

describe('side-effect hooks: each tap fails on its own, through tapable\u2019s interceptors', () => {
  it('runs every report tap in order after one throws, one rejects and one calls back with an error, recording each failure under its name', async () => {
    const hooks = createHooks();
    const { log, lines } = quietLog();
    isolateSideEffectTaps(hooks, log);
    const ran: string[] = [];
    hooks.report.tap('throws', () => {
      ran.push('throws');
      throw new Error('sync boom');
    });
    hooks.report.tapPromise('rejects', async () => {
      ran.push('rejects');
      throw new Error('async boom');
    });
    hooks.report.tapAsync('calls-back', (_result, _context, done) => {
      ran.push('calls-back');
      done(new Error('callback boom'));
    });
    hooks.report.tap('fine', () => void ran.push('fine'));
    const recorded: ReportOutcome[] = [];
    await hooks.report.promise(
      {} as AnalysisResult,
      { job, recordReport: (o: ReportOutcome) => void recorded.push(o) } as unknown as AnalysisContext,
    );
    expect(ran).to.deep.equal(['throws', 'rejects', 'calls-back', 'fine']);
    expect(recorded.map((o) => [o.reporter, o.kind, o.error_code, o.target])).to.deep.equal([
      ['throws', 'report', 'ERR_REPORTER_FAILED', `acme/app@${'b'.repeat(40)}`],
      ['rejects', 'report', 'ERR_REPORTER_FAILED', `acme/app@${'b'.repeat(40)}`],
      ['calls-back', 'report', 'ERR_REPORTER_FAILED', `acme/app@${'b'.repeat(40)}`],
    ]);
    expect(lines.join('\n')).to.contain('sync boom').and.contain('async boom').and.contain('callback boom');
  });

  it('hears every jobStart and jobFailed tap when one fails, and lets a plugin\u2019s own interceptors see the calls and taps', async () => {
    const hooks = createHooks();
    const { log } = quietLog();
    isolateSideEffectTaps(hooks, log);
    const seen: string[] = [];
    hooks.jobStart.intercept({ call: () => void seen.push('call'), tap: (tap) => void seen.push(`tap ${tap.name}`) });
    hooks.jobStart.tapPromise('first', async () => {
      throw new Error('no');
    });
    hooks.jobStart.tap('second', () => void seen.push('second ran'));
    const recorded: ReportOutcome[] = [];
    const recordReport = (o: ReportOutcome): void => void recorded.push(o);
    await hooks.jobStart.promise({
      job,
      request: { kind: 'repository', url: 'https://example.test/a.git' },
      logger: log,
      recordReport,
    });
    expect(seen).to.deep.equal(['call', 'tap first', 'tap second', 'second ran']);
    hooks.jobFailed.tap('failing', () => {
      throw new Error('also no');
    });
    await hooks.jobFailed.promise({
      job,
      error: { code: 'ERR_CANCELLED', message: 'cancelled' },
      logger: log,
      recordReport,
    });
    expect(recorded.map((o) => `${o.kind} ${o.reporter}`)).to.deep.equal(['jobStart first', 'jobFailed failing']);
  });
});
