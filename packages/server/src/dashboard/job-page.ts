import { escapeHtml } from '@cadence-detect/reports';
import { isFinal, type Job } from '../jobs/job.js';
import { DASHBOARD_ASSETS } from './dashboard-assets.js';
import { page } from './dashboard-pages.js';

/** What a job page shows of a job before its report exists. */
export type JobSummary = Pick<Job, 'id' | 'status' | 'repo' | 'error_code' | 'error'>;

/**
 * A job's page while it has no report: live progress for a queued or running job (its script
 * follows its events and reloads into the report at the end), or how it ended without one. Loaded
 * with the report renderer, whose escaping it shares, only when a browser asks for such a page.
 */
export function jobPage(job: JobSummary): { html: string; policy: string } {
  const running = !isFinal(job.status);
  const ended = running ? '' : `<p role="alert">This job ended ${escapeHtml(job.status)}${job.error_code ? ` (${escapeHtml(job.error_code)})` : ''} without a report.${job.error ? ` ${escapeHtml(job.error)}` : ''}</p>`;
  const body = `<header><p><a href="../../">Cadence</a></p><h1>${escapeHtml(job.repo)}</h1>
<p>Job <code>${escapeHtml(job.id)}</code>: <span id="status" aria-live="polite">${escapeHtml(job.status)}</span></p></header>
<main>
${ended}
<section aria-labelledby="progress-title"><h2 id="progress-title">Progress</h2>
<ol id="progress" aria-live="polite"></ol>
${running ? '<p class="muted">The report replaces this page when the job completes.</p><noscript><p>Reload this page to see the report once the job has completed.</p></noscript>' : ''}
</section>
</main>`;
  const title = `Cadence: ${escapeHtml(job.repo)}`;
  // The page is /jobs/:id/report: two levels below the root the assets are served from.
  return page(title, body, running ? DASHBOARD_ASSETS.job : null, '../../');
}
