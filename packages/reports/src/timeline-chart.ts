import type { TimelineBucket } from '@cadence-detect/plugin-sdk';
import { CHART_FRAME } from './chart-frame.js';
import { html, type SafeHtml } from './page/html.js';

const MAX_POINTS = 400;

/** Aggregates buckets pairwise until there are at most MAX_POINTS: long histories stay light. */
export function aggregateTimeline(buckets: readonly TimelineBucket[]): TimelineBucket[] {
  let points = [...buckets];
  while (points.length > MAX_POINTS) {
    const merged: TimelineBucket[] = [];
    for (let i = 0; i < points.length; i += 2) {
      const [a, b] = points.slice(i, i + 2);
      if (a) merged.push(b ? { t: a.t, commits: a.commits + b.commits, flagged: a.flagged + b.flagged } : a);
    }
    points = merged;
  }
  return points;
}

/** Commits per period as an SVG bar chart: axes, date ticks (UTC), a legend, a tooltip per bar. */
export function timelineChart(buckets: readonly TimelineBucket[]): SafeHtml {
  const points = aggregateTimeline(buckets);
  if (points.length === 0) return html`<p>No commits.</p>`;
  const { width, left, right, bottom } = CHART_FRAME;
  const height = 260;
  const top = 30;
  const first = points[0]?.t ?? 0;
  const last = points.at(-1)?.t ?? first;
  const span = Math.max(last - first, 1);
  const max = Math.max(...points.map((p) => p.commits), 1);
  const plotWidth = width - left - right;
  const x = (t: number): number => left + ((t - first) / span) * (plotWidth - barWidthOf(points.length, plotWidth));
  const y = (n: number): number => height - bottom - (n / max) * (height - top - bottom);
  const barWidth = barWidthOf(points.length, plotWidth);
  const day = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);
  const bars = points.map((p, i) => {
    const until = points[i + 1]?.t;
    const when = until && day(until - 1) !== day(p.t) ? `${day(p.t)} to ${day(until - 1)}` : day(p.t);
    const tip = html`<title>${when}: ${p.commits} commit${p.commits === 1 ? '' : 's'}, ${p.flagged} flagged</title>`;
    const flagged =
      p.flagged > 0 &&
      html`<rect x="${x(p.t).toFixed(1)}" y="${y(p.flagged).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(height - bottom - y(p.flagged)).toFixed(1)}" fill="var(--flag)">${tip}</rect>`;
    return html`<rect x="${x(p.t).toFixed(1)}" y="${y(p.commits).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(height - bottom - y(p.commits)).toFixed(1)}" fill="var(--bar)">${tip}</rect>${flagged}`;
  });
  const yTicks = [...new Set([0, Math.round(max / 2), max])].map(
    (n) =>
      html`<line x1="${left}" x2="${width - right}" y1="${y(n).toFixed(1)}" y2="${y(n).toFixed(1)}" stroke="var(--line)"/><text x="${left - 6}" y="${(y(n) + 4).toFixed(1)}" font-size="12" text-anchor="end">${n}</text>`,
  );
  const tickCount = Math.min(5, points.length);
  const xTicks = Array.from({ length: tickCount }, (_, i) =>
    tickCount === 1 ? first : first + (span * i) / (tickCount - 1),
  ).map(
    (t, i) =>
      html`<text x="${(x(t) + (i === tickCount - 1 ? barWidth : 0)).toFixed(1)}" y="${height - bottom + 18}" font-size="12" text-anchor="${i === 0 ? 'start' : i === tickCount - 1 ? 'end' : 'middle'}">${day(t)}</text>`,
  );
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title">
<title id="chart-title">Commits over time, ${day(first)} to ${day(last)}: at most ${max} commits per bar; flagged commits in red</title>
${yTicks}
<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="var(--muted)"/>
${bars}
${xTicks}
<text x="${left}" y="${height - 4}" font-size="12">date (UTC)</text>
<text x="12" y="16" font-size="12">commits per bar</text>
</svg>
<p class="legend muted"><span style="background:var(--bar)"></span>commits<span style="background:var(--flag)"></span>flagged commits · each bar one period; hover a bar for its dates and counts</p>`;
}

function barWidthOf(count: number, plotWidth: number): number {
  return Math.max(2, plotWidth / Math.max(count, 1) - 1);
}
