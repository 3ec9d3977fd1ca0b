import { expect } from 'chai';
import type { MonthlyShare } from '@cadence-detect/plugin-sdk';
import { chartedMonths, shareChart } from '../src/index.js';

/** Every month from `from` (YYYY-MM) to `to`, the share moving from `moves` on. */
function history(from: string, to: string, moves: string): MonthlyShare[] {
  const out: MonthlyShare[] = [];
  for (
    let [y, m] = from.split('-').map(Number) as [number, number];
    `${y}-${String(m).padStart(2, '0')}` <= to;
    m === 12 ? ((y += 1), (m = 1)) : (m += 1)
  ) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    out.push({
      month,
      commits: 10,
      scored_commits: 10,
      explicit_share: month >= moves ? 0.1 : 0,
      inferred_share: month >= moves ? 0.2 : 0,
      assistants: {},
    });
  }
  return out;
}

describe('the share-by-month chart', () => {
  it('starts where assistants could exist (2021-06) on a history begun in 2007, and says what it left out', () => {
    const months = history('2007-03', '2026-02', '2023-01');
    const { shown, left } = chartedMonths(months);
    expect(shown[0]!.month).to.equal('2021-06');
    expect(left).to.equal(months.findIndex((m) => m.month === '2021-06'));
    const svg = String(shareChart(months));
    expect(svg).to.contain(`the ${left} earlier months, from 2007-03, show no assistant share and are left out`);
    expect(svg).to.not.contain('>2007-03<');
  });

  it('starts earlier where the share moves before then, and never leaves out a month with a share', () => {
    const { shown } = chartedMonths(history('2019-01', '2022-01', '2020-05'));
    expect(shown[0]!.month).to.equal('2020-05');
    expect(chartedMonths(history('2022-01', '2022-06', '2030-01')).left).to.equal(0);
  });

  it('keeps every month label inside the frame: the last ends at its bar, the first starts at its own', () => {
    const svg = String(shareChart(history('2021-06', '2026-02', '2021-06')));
    const labels = [
      ...svg.matchAll(
        /<text x="([\d.]+)" y="[\d.]+" font-size="12" text-anchor="(start|middle|end)">(\d{4}-\d{2})<\/text>/g,
      ),
    ].map((m) => ({ x: Number(m[1]), anchor: m[2], month: m[3] }));
    expect(labels[0]).to.include({ anchor: 'start', month: '2021-06' });
    expect(labels.at(-1)).to.include({ anchor: 'end', month: '2026-02' });
    // The viewBox is 1000 wide with a 16-unit right margin.
    expect(labels.at(-1)!.x).to.be.at.most(1000 - 16);
    // No two labels closer than a label's width (7 characters at 12 px, about 50 units).
    for (let i = 1; i < labels.length; i++)
      expect(labels[i]!.x - labels[i - 1]!.x, labels[i]!.month).to.be.at.least(50);
  });

  it('draws the inferred part in the visible inferred colour, as its legend swatch', () => {
    const svg = String(shareChart(history('2024-01', '2024-06', '2024-01')));
    expect(svg).to.contain('fill="var(--infer)"').and.to.contain('background:var(--infer)');
    expect(svg).to.not.contain('var(--chart)');
  });

  it('marks where months without commits were left out, with a dashed break naming them', () => {
    const two = [...history('2021-06', '2021-08', '2021-06'), ...history('2025-06', '2025-07', '2021-06')];
    const svg = String(shareChart(two));
    expect(svg.match(/class="month-break"/g)).to.have.length(1);
    expect(svg).to.contain('<title>no commits from 2021-09 to 2025-05</title>');
    expect(svg).to.contain('a dashed line marks months without commits (1 gap)');
    expect(String(shareChart(history('2021-06', '2021-12', '2021-06')))).to.not.contain('month-break');
  });
});
