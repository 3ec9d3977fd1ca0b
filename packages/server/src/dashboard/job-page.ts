import { html } from '@cadence-detect/reports/page';
import { isFinal, type Job, type OrganizationJob } from '../jobs/job.js';
import { DASHBOARD_ASSETS } from './dashboard-assets.js';
import { page } from './dashboard-pages.js';

/** What a job page shows of a job before its report exists. */
export type JobSummary = Pick<Job, 'id' | 'status' | 'repo' | 'error_code' | 'error'> &
  Partial<Pick<Job, 'kind'> & Pick<OrganizationJob, 'progress'>>;

/**
 * A job's page while it has no report: live progress for a queued or running job (its script
 * follows its events and reloads into the report at the end), or how it ended without one. Every
 * string of the job goes in through `html`, escaped. Loaded only when a browser asks for such a page.
 */
export function jobPage(job: JobSummary): { html: string; policy: string } {
  const running = !isFinal(job.status);
  const ended = running
    ? ''
    : html`<p role="alert">This job ended ${job.status}${job.error_code ? html` (${job.error_code})` : ''} without a report.${job.error ? html` ${job.error}` : ''}</p>`;
  const body = html`<header><p><a href="../../">Cadence</a></p><h1>${job.repo}</h1>
<p>Job <code>${job.id}</code>: <span id="status" aria-live="polite">${job.status}</span></p></header>
<main>
${ended}
${job.kind === 'organization' ? scanProgress(job) : ''}
<section aria-labelledby="progress-title"><h2 id="progress-title">Progress</h2>
<ol id="progress" aria-live="polite"></ol>
${running && html`<p class="muted">The report replaces this page when the job completes.</p><noscript><p>Reload this page to see the report once the job has completed.</p></noscript>`}
</section>
</main>`;
  // The page is /jobs/:id/report: two levels below the root the assets are served from.
  return page(`Cadence: ${job.repo}`, body, running ? DASHBOARD_ASSETS.job : null, '../../');
}

/** An organization job's count, as the page opens (its script adds each repository as it ends). */
function scanProgress(job: JobSummary) {
  const p = job.progress;
  const told =
    p?.total === null || p === undefined
      ? 'listing the repositories'
      : `${p.done} of ${p.total} repositories done${p.failed ? `, ${p.failed} failed` : ''}`;
  return html`<p>Organization scan: ${told}.</p>`;
}
