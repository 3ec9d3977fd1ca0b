/**
 * Sortable tables for pages that need nothing else (the organization report): every
 * `table.sortable` whose header buttons carry `data-key` sorts its rows by the row's `data-<key>`,
 * numbers as numbers; an `input[data-filter=<table id>]` shows only the rows whose `data-name`
 * holds what is typed (every row, those a "show all" hides too). Without JavaScript the tables read
 * in the order the page wrote them.
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

for (const input of document.querySelectorAll<HTMLInputElement>('input[data-filter]')) {
  const table = document.getElementById(input.dataset.filter ?? '');
  const body = table instanceof HTMLTableElement ? table.tBodies[0] : undefined;
  if (!body) continue;
  input.addEventListener('input', () => {
    const wanted = input.value.trim().toLowerCase();
    for (const row of Array.from(body.rows)) {
      // An empty filter gives the rows back to the page's own rule (the first rows, or all).
      row.style.display = wanted === '' ? '' : (row.dataset.name ?? '').includes(wanted) ? 'table-row' : 'none';
    }
  });
}
