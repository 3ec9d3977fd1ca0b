import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { HUMAN_HISTORIES } from './human-histories.js';
import { html, joinHtml, type SafeHtml } from './page/html.js';
import { trendLine } from './share-chart.js';
import { counted } from './numbers.js';

const lines = (values: readonly SafeHtml[]): SafeHtml => joinHtml(values, '\n');

/** The HTML report's tables of a repository's result: assistants, size and pace metrics, authors. */
export function assistantTable(r: RepositoryResult): SafeHtml | '' {
  const entries = Object.entries(r.assistants).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '';
  return html`<h2>Assistants</h2>
<table><thead><tr><th scope="col">Assistant</th><th scope="col">Attributed commits</th></tr></thead><tbody>
${lines(entries.map(([name, n]) => html`<tr><td>${name}</td><td>${n}</td></tr>`))}
</tbody></table>`;
}

/**
 * The history's size and pace beside what the human histories of the development corpus show
 * (bench/corpus/human-reference.mjs): a measured "normal", never an invented one.
 */
export function metricsTable(r: RepositoryResult): SafeHtml | '' {
  const rows: [string, number | undefined, { p10: number; median: number; p90: number }, (v: number) => string][] = [
    [
      'Median additions per commit',
      r.metrics.median_additions,
      HUMAN_HISTORIES.median_additions,
      (v) => counted(v, 'line'),
    ],
    [
      '90th-percentile additions per commit',
      r.metrics.p90_additions,
      HUMAN_HISTORIES.p90_additions,
      (v) => counted(v, 'line'),
    ],
    [
      'Median time between an author\u2019s commits',
      r.metrics.median_author_interval_seconds,
      HUMAN_HISTORIES.median_author_interval_seconds,
      readableDuration,
    ],
  ];
  const body = rows.flatMap(([label, value, human, show]) =>
    typeof value !== 'number'
      ? []
      : html`<tr><th scope="row">${label}</th><td class="num">${show(value)}</td><td class="num">${show(human.median)}</td><td class="num">${show(human.p10)} to ${show(human.p90)}</td></tr>`,
  );
  if (body.length === 0) return '';
  return html`<h2>Size and pace</h2>
<table id="metrics"><caption class="muted">Beside the human histories of the development corpus: ${HUMAN_HISTORIES.histories} repositories, ${HUMAN_HISTORIES.commits.toLocaleString('en')} commits written before assistants (docs/scoring.md)</caption>
<thead><tr><th scope="col">Metric</th><th scope="col">This history</th><th scope="col">Human histories: median</th><th scope="col">10th to 90th percentile</th></tr></thead><tbody>
${lines(body)}
</tbody></table>`;
}

/** `45 s`, `12 min`, `3.5 h`, `2.1 days`. */
export function readableDuration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

export function authorTable(r: RepositoryResult): SafeHtml | '' {
  if (r.authors.length === 0) return '';
  const trends = new Map((r.author_months ?? []).map((a) => [a.email.toLowerCase(), a.months]));
  const rows = r.authors
    .slice(0, 20)
    .map(
      (a) =>
        html`<tr><td>${a.author}<br><span class="muted">${a.email}</span></td><td>${a.commits}</td><td>${a.attributed}</td><td>${a.flagged}</td><td>${a.automation ? 'automation' : a.share.toFixed(2)}</td><td>${trendLine(trends.get(a.email.toLowerCase()) ?? [])}</td></tr>`,
    );
  return html`<h2>Authors</h2>
<table><thead><tr><th>Author</th><th>Commits</th><th>Attributed</th><th>Flagged</th><th>Share</th><th>Trend</th></tr></thead><tbody>
${lines(rows)}
</tbody></table>`;
}
