import type { MonthlyShare } from '@cadence-detect/plugin-sdk';
import { CHART_FRAME } from './chart-frame.js';
import { html, type SafeHtml } from './page/html.js';

/**
 * The assistant share month by month as stacked SVG bars: explicit (the history says so) below,
 * inferred above, each bar as tall as the month's share. Readable without script: every bar has
 * its numbers as a tooltip, and the chart's title says what it shows.
 */
export function shareChart(months: readonly MonthlyShare[], id = 'share-chart'): SafeHtml {
  if (months.length === 0) return html`<p>No commits.</p>`;
  const { width, left, right, bottom } = CHART_FRAME;
  const height = 240;
  const top = 24;
  const plot = width - left - right;
  const slot = plot / months.length;
  const bar = Math.max(2, slot - Math.min(6, slot * 0.2));
  const y = (share: number): number => height - bottom - share * (height - top - bottom);
  const bars = months.map((m, i) => {
    const x = left + i * slot;
    const tip = html`<title>${m.month}: ${m.commits} commit${m.commits === 1 ? '' : 's'}, assistant share ${pct(m.explicit_share + m.inferred_share)} (explicit ${pct(m.explicit_share)}, inferred ${pct(m.inferred_share)})</title>`;
    const explicitTop = y(m.explicit_share);
    const inferredTop = y(m.explicit_share + m.inferred_share);
    return html`<g>${tip}<rect x="${x.toFixed(1)}" y="${explicitTop.toFixed(1)}" width="${bar.toFixed(1)}" height="${(height - bottom - explicitTop).toFixed(1)}" fill="var(--flag)"/><rect x="${x.toFixed(1)}" y="${inferredTop.toFixed(1)}" width="${bar.toFixed(1)}" height="${(explicitTop - inferredTop).toFixed(1)}" fill="var(--chart)"/></g>`;
  });
  const ticks = [0, 0.5, 1].map((s) => html`<line x1="${left}" x2="${width - right}" y1="${y(s).toFixed(1)}" y2="${y(s).toFixed(1)}" stroke="var(--line)"/><text x="${left - 6}" y="${(y(s) + 4).toFixed(1)}" font-size="12" text-anchor="end">${pct(s)}</text>`);
  const labelEvery = Math.max(1, Math.ceil(months.length / 8));
  const labels = months.map((m, i) => (i % labelEvery === 0 || i === months.length - 1) && html`<text x="${(left + i * slot + bar / 2).toFixed(1)}" y="${height - bottom + 18}" font-size="12" text-anchor="middle">${m.month}</text>`);
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title">
<title id="${id}-title">Assistant share by month, ${months[0]!.month} to ${months[months.length - 1]!.month}: explicit (the history says so) in red, inferred above it</title>
${ticks}
${bars}
${labels}
</svg>
<p class="legend muted"><span style="background:var(--flag)"></span>explicit<span style="background:var(--chart)"></span>inferred · each bar one month; hover a bar for its numbers</p>`;
}

/** A small line of one author's monthly share (0 to 100 %), for a table cell. */
export function trendLine(months: readonly MonthlyShare[]): SafeHtml | '' {
  if (months.length < 2) return '';
  const width = 120;
  const height = 24;
  const points = months.map((m, i) => `${((i / (months.length - 1)) * (width - 2) + 1).toFixed(1)},${(height - 1 - (m.explicit_share + m.inferred_share) * (height - 2)).toFixed(1)}`).join(' ');
  return html`<svg class="trend" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="share by month from ${months[0]!.month} to ${months[months.length - 1]!.month}: ${months.map((m) => pct(m.explicit_share + m.inferred_share)).join(', ')}"><polyline points="${points}" fill="none" stroke="var(--flag)" stroke-width="1.5"/></svg>`;
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}
