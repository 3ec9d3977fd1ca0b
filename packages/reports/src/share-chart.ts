import type { MonthlyShare } from '@cadence-detect/plugin-sdk';
import { CHART_FRAME } from './chart-frame.js';
import { html, type SafeHtml } from './page/html.js';

/**
 * The assistant share month by month as stacked SVG bars: explicit (the history says so) below,
 * inferred above, each bar as tall as the month's share. Readable without script: every bar has
 * its numbers as a tooltip, and the chart's title says what it shows.
 */
/** The first month an assistant could have written code (GitHub Copilot's technical preview). */
export const ASSISTANTS_FROM = '2021-06';

/**
 * The months a share chart draws: from the earlier of the first month an assistant could exist
 * (ASSISTANTS_FROM) and the first month whose share moves; the months before, all at 0, are left
 * out (and counted), so a history begun in 2007 does not squeeze its bars into the right edge.
 */
export function chartedMonths(months: readonly MonthlyShare[]): { shown: readonly MonthlyShare[]; left: number } {
  const moves = months.findIndex((m) => m.explicit_share + m.inferred_share > 0);
  const era = months.findIndex((m) => m.month >= ASSISTANTS_FROM);
  const start = Math.min(moves < 0 ? Infinity : moves, era < 0 ? months.length - 1 : era);
  const from = Number.isFinite(start) ? Math.max(0, start) : 0;
  return { shown: months.slice(from), left: from };
}

export function shareChart(all: readonly MonthlyShare[], id = 'share-chart'): SafeHtml {
  if (all.length === 0) return html`<p>No commits.</p>`;
  const { shown: months, left: hidden } = chartedMonths(all);
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
    return html`<g>${tip}<rect x="${x.toFixed(1)}" y="${explicitTop.toFixed(1)}" width="${bar.toFixed(1)}" height="${(height - bottom - explicitTop).toFixed(1)}" fill="var(--flag)"/><rect x="${x.toFixed(1)}" y="${inferredTop.toFixed(1)}" width="${bar.toFixed(1)}" height="${(explicitTop - inferredTop).toFixed(1)}" fill="var(--infer)"/></g>`;
  });
  const ticks = [0, 0.5, 1].map(
    (s) =>
      html`<line x1="${left}" x2="${width - right}" y1="${y(s).toFixed(1)}" y2="${y(s).toFixed(1)}" stroke="var(--line)"/><text x="${left - 6}" y="${(y(s) + 4).toFixed(1)}" font-size="12" text-anchor="end">${pct(s)}</text>`,
  );
  const labelEvery = Math.max(1, Math.ceil(months.length / 8));
  const last = months.length - 1;
  // Labels stay inside the frame: the first starts at its bar, the last ends at its bar, and a
  // regular label too close to the last one is left out so the two never overlap.
  const labels = months.map((m, i) => {
    const shown = i === last || (i % labelEvery === 0 && (last - i >= labelEvery / 2 || i === 0));
    if (!shown) return '';
    const anchor = months.length === 1 ? 'middle' : i === 0 ? 'start' : i === last ? 'end' : 'middle';
    const x =
      anchor === 'start' ? left + i * slot : anchor === 'end' ? left + i * slot + bar : left + i * slot + bar / 2;
    return html`<text x="${x.toFixed(1)}" y="${height - bottom + 18}" font-size="12" text-anchor="${anchor}">${m.month}</text>`;
  });
  // Months without commits have no bar: where the months shown jump, a dashed break says so.
  const breaks = months.map((m, i) => {
    if (i === 0 || followingMonth(months[i - 1]?.month ?? '') === m.month) return '';
    const x = left + i * slot - (slot - bar) / 2;
    return html`<g class="month-break"><title>no commits from ${followingMonth(months[i - 1]?.month ?? '')} to ${previousMonth(m.month)}</title><line x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${top}" y2="${height - bottom}" stroke="var(--line)" stroke-dasharray="3 3"/></g>`;
  });
  const gaps = breaks.filter((b) => b !== '').length;
  const earlier =
    hidden > 0
      ? `; the ${hidden} earlier months, from ${all[0]?.month ?? ''}, show no assistant share and are left out`
      : '';
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title">
<title id="${id}-title">Assistant share by month, ${months[0]?.month ?? ''} to ${months.at(-1)?.month ?? ''}: explicit (the history says so) in red, inferred above it${earlier}</title>
${ticks}
${bars}
${breaks}
${labels}
</svg>
<p class="legend muted"><span style="background:var(--flag)"></span>explicit<span style="background:var(--infer)"></span>inferred · each bar one month; hover a bar for its numbers${gaps > 0 ? html` · a dashed line marks months without commits (${gaps} ${gaps === 1 ? 'gap' : 'gaps'})` : ''}${earlier ? html` · from ${months[0]?.month ?? ''}${earlier}` : ''}</p>`;
}

/** A small line of one author's monthly share (0 to 100 %), for a table cell. */
export function trendLine(months: readonly MonthlyShare[]): SafeHtml | '' {
  if (months.length < 2) return '';
  const width = 120;
  const height = 24;
  const points = months
    .map(
      (m, i) =>
        `${((i / (months.length - 1)) * (width - 2) + 1).toFixed(1)},${(height - 1 - (m.explicit_share + m.inferred_share) * (height - 2)).toFixed(1)}`,
    )
    .join(' ');
  return html`<svg class="trend" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="share by month from ${months[0]?.month ?? ''} to ${months.at(-1)?.month ?? ''}: ${months.map((m) => pct(m.explicit_share + m.inferred_share)).join(', ')}"><polyline points="${points}" fill="none" stroke="var(--flag)" stroke-width="1.5"/></svg>`;
}

function pct(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** `2019-12` → `2020-01`. */
function followingMonth(month: string): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** `2020-01` → `2019-12`. */
function previousMonth(month: string): string {
  const [year = 0, number = 1] = month.split('-').map(Number);
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}
