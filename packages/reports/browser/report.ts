/**
 * The report's only script: sorting, filtering and paging the findings table. Bundled at build time
 * and inlined into the page, which allows it by its hash (nothing else can run). Without
 * JavaScript every row the page holds is shown and the controls stay hidden.
 */
interface Order {
  readonly key: string;
  readonly dir: 1 | -1;
}

const PAGE = 100;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the report has no #${id}`);
  return element as T;
}

function start(table: HTMLTableElement): void {
  const body = table.tBodies[0]!;
  const rows = Array.from(body.rows);
  const controls = byId('finding-controls');
  const shown = byId('finding-count');
  const more = byId<HTMLButtonElement>('finding-more');
  let limit = PAGE;
  let order: Order = { key: 'confidence', dir: -1 };
  controls.hidden = false;
  const value = (id: string): string => byId<HTMLInputElement | HTMLSelectElement>(id).value.trim().toLowerCase();
  function apply(): void {
    const severity = value('filter-severity');
    const evidence = value('filter-evidence');
    const strategy = value('filter-strategy');
    const author = value('filter-author');
    const matching = rows.filter(
      (row) =>
        (!severity || row.dataset.severity === severity) &&
        (!evidence || row.dataset.evidence === evidence) &&
        (!strategy || (row.dataset.strategies ?? '').split(' ').includes(strategy)) &&
        (!author || (row.dataset.author ?? '').includes(author)),
    );
    matching.sort((a, b) => {
      const x = a.dataset[order.key] ?? '';
      const y = b.dataset[order.key] ?? '';
      const n = Number(x) - Number(y);
      return order.dir * (Number.isNaN(n) ? x.localeCompare(y) : n);
    });
    for (const row of rows) row.hidden = true;
    matching.forEach((row, i) => {
      row.hidden = i >= limit;
      body.appendChild(row);
    });
    shown.textContent = `${Math.min(limit, matching.length)} of ${matching.length} shown`;
    more.hidden = matching.length <= limit;
  }
  for (const button of table.querySelectorAll<HTMLButtonElement>('th button[data-key]')) {
    button.addEventListener('click', () => {
      const key = button.dataset.key ?? 'confidence';
      order = { key, dir: order.key === key ? (-order.dir as 1 | -1) : key === 'author' || key === 'commit' ? 1 : -1 };
      for (const th of table.querySelectorAll('th[aria-sort]')) th.setAttribute('aria-sort', 'none');
      button.parentElement?.setAttribute('aria-sort', order.dir > 0 ? 'ascending' : 'descending');
      apply();
    });
  }
  for (const id of ['filter-severity', 'filter-evidence', 'filter-strategy', 'filter-author']) {
    byId(id).addEventListener('input', () => {
      limit = PAGE;
      apply();
    });
  }
  more.addEventListener('click', () => {
    limit += PAGE;
    apply();
  });
  apply();
}

const findings = document.getElementById('findings');
if (findings instanceof HTMLTableElement) start(findings);
