import type { LinesAtHead, RepositoryResult, Survival } from '@cadence-detect/plugin-sdk';
import { CHART_FRAME } from './chart-frame.js';
import { linesEraSentence } from './explain.js';
import { count } from './numbers.js';
import { html, joinHtml, type SafeHtml } from './page/html.js';

const pct = (part: number, whole: number): string => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : 'n/a');
const share = (value: number | null): string => (value === null ? 'n/a' : `${Math.round(value * 100)}%`);

/** The parts of the code at HEAD, in the order the bar draws them, with the colour and word for each. */
function parts(l: LinesAtHead): { label: string; lines: number; colour: string }[] {
  return [
    { label: 'explicit', lines: l.explicit, colour: 'var(--flag)' },
    { label: 'inferred', lines: l.inferred, colour: 'var(--infer)' },
    { label: 'human', lines: l.human, colour: 'var(--bar)' },
    { label: 'automation', lines: l.automation, colour: 'var(--line)' },
    { label: 'before the range', lines: l.outside, colour: 'var(--head)' },
  ].filter((p) => p.lines > 0);
}

/** One horizontal bar of the code at HEAD by who wrote it; its title says the numbers, so it reads without script. */
function codeBar(l: LinesAtHead): SafeHtml {
  const { width, left, right } = CHART_FRAME;
  const height = 56;
  const plot = width - left - right;
  let x = left;
  const shown = parts(l);
  const segments = shown.map((p) => {
    const w = l.counted > 0 ? (p.lines / l.counted) * plot : 0;
    const segment = html`<rect x="${x.toFixed(1)}" y="12" width="${w.toFixed(1)}" height="32" fill="${p.colour}"><title>${p.label}: ${count(p.lines)} lines (${pct(p.lines, l.counted)})</title></rect>`;
    x += w;
    return segment;
  });
  const summary = shown.map((p) => `${p.label} ${count(p.lines)}`).join(', ');
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="code-bar-title">
<title id="code-bar-title">The ${count(l.counted)} lines at HEAD by who wrote them: ${summary}</title>
${joinHtml(segments, '\n')}
</svg>
<p class="legend muted">${joinHtml(
    shown.map((p) => html`<span style="background:${p.colour}"></span>${p.label}`),
    '',
  )}</p>`;
}

/** What the line-level records named, and what was skipped (the reasons listed, as the data wrote them). */
function recordsNote(records: NonNullable<RepositoryResult['lines']>['records'] & object): SafeHtml {
  const skipped = records.skipped_reasons.map((reason) => html`<li>${reason}</li>`);
  return html`<p id="code-records">Line records: ${count(records.git_ai)} commits with a git-ai authorship log and ${count(records.agent_trace)} Agent Trace records name ${count(records.marked)} of these lines exactly; the rest of those commits' lines count as their authors'.${records.skipped > 0 ? html` ${count(records.skipped)} malformed records were skipped:` : ''}</p>
${skipped.length > 0 && html`<ul class="muted">${joinHtml(skipped, '')}</ul>`}`;
}

/** "Code at HEAD": the share of the lines at the analysed commit, by folder and by assistant (docs/lines.md). */
export function codeAtHeadSection(r: RepositoryResult): SafeHtml | '' {
  if (!r.lines)
    return r.lines_skipped ? html`<h2>Code at HEAD</h2>\n<p class="muted">Not counted: ${r.lines_skipped}.</p>` : '';
  const l = r.lines;
  const folders = l.directories.map(
    (d) =>
      html`<tr><td><code>${d.path}</code></td><td class="num">${count(d.counted)}</td><td class="num">${share(d.share)}</td></tr>`,
  );
  const assistants = Object.entries(l.assistants)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => html`<tr><td>${name}</td><td class="num">${count(n)}</td></tr>`);
  return html`<h2>Code at HEAD</h2>
<p><strong>${share(l.share)}</strong> of the ${count(l.counted)} lines at <code>${l.head.slice(0, 12)}</code> are assistant-made: ${count(l.explicit)} explicit (their commit names an assistant) and ${count(l.inferred)} inferred (each commit's probability times its lines). ${count(l.excluded)} lines of vendored, generated and lock files and ${l.binary_files} binary files are left out.</p>
${linesEraSentence(l) && html`<p id="lines-era-check">${linesEraSentence(l)}</p>`}
${codeBar(l)}
${l.records ? recordsNote(l.records) : ''}
<table id="code-folders"><caption class="muted">By top-level folder</caption><thead><tr><th scope="col">Folder</th><th scope="col">Lines</th><th scope="col">Assistant share</th></tr></thead><tbody>
${joinHtml(folders, '\n')}
</tbody></table>
${
  assistants.length > 0 &&
  html`<table id="code-assistants"><caption class="muted">Explicit lines by assistant</caption><thead><tr><th scope="col">Assistant</th><th scope="col">Lines</th></tr></thead><tbody>
${joinHtml(assistants, '\n')}
</tbody></table>`
}`;
}

/** The height a bar of 0% surviving keeps (viewBox units): visible, unlike a month without lines. */
const MIN_BAR_HEIGHT = 2;

/** Surviving share by month, assistant beside human: two bars a month, each as tall as the month's surviving share. */
function survivalChart(months: Survival['months']): SafeHtml {
  const { width, left, right, bottom } = CHART_FRAME;
  const height = 220;
  const top = 20;
  const plot = width - left - right;
  const slot = plot / months.length;
  const bar = Math.max(1, (slot - Math.min(6, slot * 0.2)) / 2);
  const y = (value: number): number => height - bottom - value * (height - top - bottom);
  const bars = months.map((m, i) => {
    const x = left + i * slot;
    const pair = [
      {
        who: 'assistant',
        added: m.assistant_added,
        surviving: m.assistant_surviving,
        reworked: m.assistant_reworked_14d,
        colour: 'var(--flag)',
      },
      {
        who: 'human',
        added: m.human_added,
        surviving: m.human_surviving,
        reworked: m.human_reworked_14d,
        colour: 'var(--bar)',
      },
    ];
    return joinHtml(
      pair.map((p, k) => {
        // No lines added: no bar. Lines added and none surviving: a sliver at the axis, so 0% never reads as no data.
        if (p.added <= 0) return '';
        const rate = Math.min(1, p.surviving / p.added);
        const tall = Math.max(MIN_BAR_HEIGHT, height - bottom - y(rate));
        return html`<rect x="${(x + k * bar).toFixed(1)}" y="${(height - bottom - tall).toFixed(1)}" width="${bar.toFixed(1)}" height="${tall.toFixed(1)}" fill="${p.colour}"><title>${m.month}, ${p.who}: ${count(p.added)} lines added, ${pct(p.surviving, p.added)} surviving, ${pct(p.reworked, p.added)} reworked within 14 days</title></rect>`;
      }),
      '',
    );
  });
  const ticks = [0, 0.5, 1].map(
    (s) =>
      html`<line x1="${left}" x2="${width - right}" y1="${y(s).toFixed(1)}" y2="${y(s).toFixed(1)}" stroke="var(--line)"/><text x="${left - 6}" y="${(y(s) + 4).toFixed(1)}" font-size="12" text-anchor="end">${Math.round(s * 100)}%</text>`,
  );
  const labelEvery = Math.max(1, Math.ceil(months.length / 8));
  const labels = months.map(
    (m, i) =>
      (i % labelEvery === 0 || i === months.length - 1) &&
      html`<text x="${Math.min(width - right - 30, left + i * slot + bar).toFixed(1)}" y="${height - bottom + 18}" font-size="12" text-anchor="middle">${m.month}</text>`,
  );
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="survival-chart-title">
<title id="survival-chart-title">Share of each month's added lines still at HEAD, ${months[0]?.month ?? ''} to ${months.at(-1)?.month ?? ''}: assistant in red, human in grey</title>
${ticks}
${bars}
${labels}
</svg>
<p class="legend muted"><span style="background:var(--flag)"></span>assistant<span style="background:var(--bar)"></span>human · the share of each month's added lines still at HEAD; hover a bar for its numbers</p>`;
}

/** "Does it last": survival and rework, assistant against human, in a table and by month (docs/lines.md). */
export function survivalSection(r: RepositoryResult): SafeHtml | '' {
  const s = r.survival;
  if (!s) return '';
  const row = (who: string, side: Survival['assistant']): SafeHtml =>
    html`<tr><th scope="row">${who}</th><td class="num">${count(side.added)}</td><td class="num">${pct(side.surviving, side.added)}</td><td class="num">${pct(side.reworked_14d, side.added)}</td></tr>`;
  const months = s.months.slice(-36);
  return html`<h2>Does it last</h2>
<table id="survival"><caption class="muted">Lines the analysed commits added (assistant ones weighed by probability), how many are still at HEAD, and how many were deleted or rewritten within 14 days</caption>
<thead><tr><th scope="col">Written by</th><th scope="col">Lines added</th><th scope="col">Surviving</th><th scope="col">Reworked within 14 days</th></tr></thead><tbody>
${row('assistant', s.assistant)}
${row('human', s.human)}
</tbody></table>
${months.length > 0 && survivalChart(months)}`;
}
