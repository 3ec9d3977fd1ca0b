import { createHash } from 'node:crypto';

/**
 * The report's only script: sorting, filtering and paging the findings table. Small, inline, and
 * allowed by the page's Content-Security-Policy through its hash (nothing else can run). Without
 * JavaScript every row the page holds is shown and the controls stay hidden.
 */
export const REPORT_SCRIPT = `(() => {
  const table = document.getElementById('findings');
  if (!table) return;
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const controls = document.getElementById('finding-controls');
  const shown = document.getElementById('finding-count');
  const more = document.getElementById('finding-more');
  const PAGE = 100;
  let limit = PAGE;
  let order = { key: 'confidence', dir: -1 };
  controls.hidden = false;
  const value = (id) => document.getElementById(id).value.trim().toLowerCase();
  function apply() {
    const severity = value('filter-severity');
    const evidence = value('filter-evidence');
    const strategy = value('filter-strategy');
    const author = value('filter-author');
    const matching = rows.filter((row) => (!severity || row.dataset.severity === severity)
      && (!evidence || row.dataset.evidence === evidence)
      && (!strategy || row.dataset.strategies.split(' ').includes(strategy))
      && (!author || row.dataset.author.includes(author)));
    matching.sort((a, b) => {
      const x = a.dataset[order.key];
      const y = b.dataset[order.key];
      const n = Number(x) - Number(y);
      return order.dir * (Number.isNaN(n) ? x.localeCompare(y) : n);
    });
    for (const row of rows) row.hidden = true;
    matching.forEach((row, i) => { row.hidden = i >= limit; body.appendChild(row); });
    shown.textContent = Math.min(limit, matching.length) + ' of ' + matching.length + ' shown';
    more.hidden = matching.length <= limit;
  }
  for (const button of table.querySelectorAll('th button[data-key]')) {
    button.addEventListener('click', () => {
      const key = button.dataset.key;
      order = { key, dir: order.key === key ? -order.dir : (key === 'author' || key === 'commit' ? 1 : -1) };
      for (const th of table.querySelectorAll('th[aria-sort]')) th.setAttribute('aria-sort', 'none');
      button.parentElement.setAttribute('aria-sort', order.dir > 0 ? 'ascending' : 'descending');
      apply();
    });
  }
  for (const id of ['filter-severity', 'filter-evidence', 'filter-strategy', 'filter-author']) {
    document.getElementById(id).addEventListener('input', () => { limit = PAGE; apply(); });
  }
  more.addEventListener('click', () => { limit += PAGE; apply(); });
  apply();
})();`;

/** The CSP source that lets exactly this script run. */
export const REPORT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(REPORT_SCRIPT).digest('base64')}'`;
