import { Router } from '../vendor/koa.js';
import type { Middleware } from 'koa';
import type { JobManager } from '../jobs/job-manager.js';
import { API_BODY_LIMIT, jsonBody, requireContentType } from '../middleware/body.js';
import { repositoryJob, websiteJob } from '../analysis-targets.js';
import { RepositoryBody, WebsiteBody, validated } from '../request-validation.js';
import type { OrganizationScans } from '../scans/organization-scans.js';
import { organizationRequest, type ScanRules } from '../scans/organization-request.js';
import type { RegisterRoutes } from './route-module.js';

/** On-demand analysis: 202 with the queued job (docs/http-api.md, The job). */
/** `guards`: the cross-site check and the analyses rate limit, shared with the stream routes. */
function analyzeRoutes(
  router: Router,
  jobs: JobManager,
  allowLocalPaths: boolean,
  guards: readonly Middleware[],
): void {
  const body = [...guards, requireContentType(['application/json']), jsonBody(API_BODY_LIMIT)];
  router.post('/api/analyze/repository', ...body, async (ctx) => {
    const { url, branch } = validated(RepositoryBody, ctx.request.body);
    const job = await jobs.submit(repositoryJob(url, branch, allowLocalPaths, 'api'));
    ctx.status = 202;
    ctx.body = {
      id: job.id,
      job_id: job.id,
      status: 'queued',
      message: `Analysis of ${job.repo} queued; poll GET /jobs/${job.id}`,
    };
  });
  router.post('/api/analyze/website', ...body, async (ctx) => {
    const { url } = validated(WebsiteBody, ctx.request.body);
    const job = await jobs.submit(websiteJob(url, allowLocalPaths, 'api'));
    ctx.status = 202;
    ctx.body = {
      id: job.id,
      job_id: job.id,
      status: 'queued',
      message: `Analysis of ${url} queued; poll GET /jobs/${job.id}`,
    };
  });
}

/**
 * `POST /api/analyze/organization` (docs/http-api.md, The organization job): registered only on a
 * server with an API token, since a scan lists whatever the forge token can see.
 */
function organizationRoutes(
  router: Router,
  scans: OrganizationScans,
  rules: ScanRules,
  guards: readonly Middleware[],
): void {
  router.post(
    '/api/analyze/organization',
    ...guards,
    requireContentType(['application/json']),
    jsonBody(API_BODY_LIMIT),
    async (ctx) => {
      const job = await scans.start(organizationRequest(ctx.request.body, rules));
      ctx.status = 202;
      ctx.body = {
        id: job.id,
        job_id: job.id,
        status: job.status,
        kind: job.kind,
        message: `Scan of ${job.repo} started; poll GET /jobs/${job.id}`,
      };
    },
  );
}

/** The analysis routes; the organization route only on a server with an API token. */
export const register: RegisterRoutes<'config' | 'jobs' | 'scans' | 'engine' | 'guards'> = (
  { guarded },
  { config, jobs, scans, engine, guards },
) => {
  analyzeRoutes(guarded, jobs, config.security.allow_local_paths, guards.startsJobs);
  // Only behind a token: a server anyone can reach must not list what its forge token can see.
  if (config.api.token !== null) {
    const rules = {
      allowedOwners: config.scans.allowed_owners,
      allowLocalPaths: config.security.allow_local_paths,
      plugins: () => engine.plugins(),
    };
    organizationRoutes(guarded, scans, rules, guards.startsJobs);
  }
};
