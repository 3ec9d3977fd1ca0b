import { Router } from '../vendor/koa.js';
import type { Context, Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import type { JobManager } from '../jobs/job-manager.js';
import type { JobStore } from '../jobs/job-store.js';
import type { OrganizationResult } from '@cadence-detect/organization';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import { isFinal, jobView, type Job, type JobStatus, type ScanChild } from '../jobs/job.js';
import type { RegisterRoutes } from './route-module.js';
import { sendPage } from './send-page.js';
import { pathParameter } from './path-parameter.js';

const STATUS_ALIASES: Record<string, JobStatus> = {
  queued: 'queued',
  pending: 'queued',
  running: 'running',
  processing: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  timeout: 'timeout',
};

function integerParam(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw HttpError.invalidRequest(name, 'must be a non-negative integer');
  return Number(value);
}

/** Reading jobs (docs/http-api.md: The job, Conventions). */
function jobRoutes(router: Router, store: JobStore, jobs: JobManager, limit: Middleware): void {
  router.get('/jobs', limit, async (ctx) => {
    const limit = Math.min(100, integerParam(ctx.query.limit, 'limit', 10));
    const offset = integerParam(ctx.query.offset, 'offset', 0);
    const statusParam = ctx.query.status;
    let status: JobStatus | undefined;
    if (statusParam !== undefined) {
      // Own keys only: `__proto__` or `constructor` must not find Object.prototype's.
      status =
        typeof statusParam === 'string' && Object.hasOwn(STATUS_ALIASES, statusParam)
          ? STATUS_ALIASES[statusParam]
          : undefined;
      if (!status) throw HttpError.invalidRequest('status', `must be one of ${Object.keys(STATUS_ALIASES).join(', ')}`);
    }
    const repo = typeof ctx.query.repo === 'string' && ctx.query.repo ? ctx.query.repo : undefined;
    const list = await store.list({ limit, offset, ...(status ? { status } : {}), ...(repo ? { repo } : {}) });
    ctx.body = list.map((job) => jobView(job, 'list'));
  });
  router.get('/jobs/:id', limit, async (ctx) => {
    const id = pathParameter(ctx, 'id');
    const job = await store.get(id);
    if (!job) throw HttpError.notFound(`No job ${id}`);
    ctx.body = jobView(job, 'full');
  });
  router.post('/jobs/:id/cancel', limit, async (ctx) => {
    ctx.body = jobView(await jobs.cancel(pathParameter(ctx, 'id')), 'full');
  });
  router.get('/api/results/:id', limit, async (ctx) => {
    const id = pathParameter(ctx, 'id');
    const job = await store.get(id);
    if (!job) throw HttpError.notFound(`No job ${id}`);
    const result = job.kind === 'organization' ? job.organization : job.result;
    if (job.status === 'completed' && result) {
      ctx.body = result;
      return;
    }
    const why =
      job.status === 'queued' || job.status === 'running'
        ? `Job ${job.id} is ${job.status}: no result yet`
        : `Job ${job.id} ended ${job.status} (${job.error_code ?? 'no code'}): it has no result`;
    throw HttpError.notFound(why);
  });
  // The job's page: the same HTML report the CLI writes, for a browser. It loads the
  // renderer only when asked, and sends the report's own Content-Security-Policy as a header too.
  router.get('/jobs/:id/report', limit, async (ctx) => {
    const id = pathParameter(ctx, 'id');
    const job = await store.get(id);
    if (!job) throw HttpError.notFound(`No job ${id}`);
    await answerReport(ctx, job);
  });
}

/**
 * A job's report page: the organization page or the HTML report once it completed; before that (or
 * when it ended without one) its live page to a browser, 409 to an API client.
 */
async function answerReport(ctx: Context, job: Job): Promise<void> {
  const report = reportOf(job);
  if (!report && ctx.accepts('json', 'html') === 'html') {
    // A browser gets the job's live page (or how it ended), not an error body.
    const { jobPage } = await import('../dashboard/job-page.js');
    sendPage(ctx, jobPage(job), isFinal(job.status) ? 409 : 200);
    return;
  }
  if (!report) {
    throw new HttpError(
      409,
      'conflict',
      !isFinal(job.status)
        ? `Job ${job.id} is ${job.status}: its report is not ready`
        : `Job ${job.id} ended ${job.status} (${job.error_code ?? 'no code'}): it has no report`,
    );
  }
  if ('organization' in report) {
    const { renderOrganizationHtml, ORGANIZATION_CONTENT_SECURITY_POLICY } =
      await import('@cadence-detect/organization/html');
    sendPage(ctx, {
      html: renderOrganizationHtml(withReportLinks(report.organization, report.children)),
      policy: `${ORGANIZATION_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
    });
    return;
  }
  const { renderReport, REPORT_CONTENT_SECURITY_POLICY } = await import('@cadence-detect/reports');
  // frame-ancestors works only as a header (a <meta> CSP cannot carry it): no site frames the report.
  sendPage(ctx, {
    html: renderReport({ ...report.result, ...(job.reports?.length ? { reports: job.reports } : {}) }, 'html'),
    policy: `${REPORT_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  });
}

/** What a completed job's report is made from: the organization's result and its jobs, or the analysis result. */
function reportOf(
  job: Job,
): { organization: OrganizationResult; children: readonly ScanChild[] } | { result: AnalysisResult } | null {
  if (job.status !== 'completed') return null;
  if (job.kind === 'organization')
    return job.organization ? { organization: job.organization, children: job.children ?? [] } : null;
  return job.result ? { result: job.result } : null;
}

/** The organization page links each analyzed repository to its own job's report (`/jobs/<id>/report`, relative). */
function withReportLinks(org: OrganizationResult, children: readonly ScanChild[]): OrganizationResult {
  return {
    ...org,
    repositories: org.repositories.map((r, i) => {
      const child = children[i];
      return child?.job_id && r.error === null && child.repository === r.repository
        ? { ...r, report: `../${encodeURIComponent(child.job_id)}/report` }
        : r;
    }),
  };
}

/** The job routes, behind the token. */
export const register: RegisterRoutes<'backends' | 'jobs' | 'guards'> = ({ guarded }, { backends, jobs, guards }) => {
  jobRoutes(guarded, backends.store, jobs, guards.queryLimit);
};
