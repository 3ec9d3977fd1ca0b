/**
 * Sortable tables for pages that need nothing else (the organization report): every
 * `table.sortable` whose header buttons carry `data-key` sorts its rows by the row's `data-<key>`,
 * numbers as numbers. Without JavaScript the tables read in the order the page wrote them.
 */
function sortable(table: HTMLTableElement): void {
  const body = table.tBodies[0];
  if (!body) return;
  let current = { key: '', dir: -1 };
  for (const button of table.querySelectorAll<HTMLButtonElement>('th button[data-key]')) {
    button.addEventListener('click', () => {
      const key = button.dataset.key ?? '';
      current = { key, dir: current.key === key ? -current.dir : button.dataset.first === 'ascending' ? 1 : -1 };
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = a.dataset[key] ?? '';
        const y = b.dataset[key] ?? '';
        const n = Number(x) - Number(y);
        return current.dir * (x !== '' && y !== '' && !Number.isNaN(n) ? n : x.localeCompare(y));
      });
      for (const row of rows) body.appendChild(row);
      for (const th of table.querySelectorAll('th[aria-sort]')) th.setAttribute('aria-sort', 'none');
      button.parentElement?.setAttribute('aria-sort', current.dir > 0 ? 'ascending' : 'descending');
    });
  }
}

for (const table of document.querySelectorAll<HTMLTableElement>('table.sortable')) sortable(table);
