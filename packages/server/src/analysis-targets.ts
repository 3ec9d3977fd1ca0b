import { redactUrl, type AnalysisRequest } from '@cadence-detect/engine';
import { checkBranchName, parseRepositoryUrl } from '@cadence-detect/git-source';
// The URL rule alone: the package's index brings the page fetcher and parse5, which a server's
// main thread never runs (pages are fetched and parsed where analyses run).
import { parseWebsiteUrl } from '@cadence-detect/web-source/url';
import type { NewJob } from './jobs/job-manager.js';

/**
 * Turns an analyze or stream request into a job, checking the URL rules up front (a refused URL
 * is a 400, not a failed job). Private addresses are checked later, after DNS, by the job.
 */
export function repositoryJob(
  url: string,
  branch: string | null | undefined,
  allowLocalPaths: boolean,
  source: NewJob['source'],
): NewJob {
  const locator = parseRepositoryUrl(url, { allowLocalPaths });
  // Refused here, as a 400, rather than as a job that fails when the clone starts.
  if (branch !== null && branch !== undefined) checkBranchName(branch);
  const request: AnalysisRequest = { kind: 'repository', url, branch: branch ?? null };
  return { request, source, repo: locator.repo, branch: branch ?? null };
}

export function websiteJob(url: string, allowLocalPaths: boolean, source: NewJob['source']): NewJob {
  parseWebsiteUrl(url, { allowLocalPaths });
  return { request: { kind: 'website', url }, source, repo: redactUrl(url), branch: null };
}
