/**
 * The dashboard's script: the jobs list, each unfinished job followed over its event stream
 * (GET /jobs/:id/events), the analyze form, plugins and health. Every value from a job goes into
 * the page as text (textContent), never as markup.
 */
import { byId } from './by-id.js';
import { describeEvent, type JobEventData } from './describe-event.js';

/** What the list shows of a job (GET /jobs, GET /jobs/:id, the job feed: docs/http-api.md). */
interface JobView {
  readonly id: string;
  readonly status: string;
  readonly repo?: string;
  readonly source?: string;
  readonly started_at?: string | null;
  readonly finished_at?: string | null;
  readonly result?: {
    readonly overall_score?: number;
    readonly ai_share?: number;
    readonly assessment?: string;
  } | null;
}

const rows = new Map<string, HTMLTableRowElement>();
const streams = new Map<string, EventSource>();
const cell = (text: string | undefined): HTMLTableCellElement => {
  const td = document.createElement('td');
  td.textContent = text ?? '';
  return td;
};

function seconds(job: JobView): string {
  if (!job.started_at) return '';
  const end = job.finished_at ? Date.parse(job.finished_at) : Date.now();
  return `${((end - Date.parse(job.started_at)) / 1000).toFixed(1)} s`;
}

/** A row's cells, made once: progress events update their text, so the link a user is clicking stays put. */
const COLUMNS = 7;
function rowFor(job: JobView): HTMLTableRowElement {
  let row = rows.get(job.id);
  if (row) return row;
  row = document.createElement('tr');
  const id = document.createElement('td');
  const a = document.createElement('a');
  a.href = `jobs/${encodeURIComponent(job.id)}/report`;
  a.textContent = job.id.slice(0, 8);
  id.append(a);
  row.append(id);
  for (let i = 1; i < COLUMNS; i++) row.append(cell(''));
  rows.set(job.id, row);
  byId('jobs-body').prepend(row);
  return row;
}

function render(job: JobView, progress?: string): void {
  const row = rowFor(job);
  row.dataset.status = job.status;
  row.dataset.repo = String(job.repo || '').toLowerCase();
  row.dataset.source = String(job.source || '');
  const result = job.result || {};
  const texts = [
    job.status + (progress ? `: ${progress}` : ''),
    job.repo ?? '',
    job.source ?? '',
    typeof result.overall_score === 'number'
      ? result.overall_score.toFixed(2)
      : typeof result.ai_share === 'number'
        ? result.ai_share.toFixed(2)
        : '',
    result.assessment || '',
    seconds(job),
  ];
  texts.forEach((text, i) => {
    const td = row.cells[i + 1]!;
    if (td.textContent !== text) td.textContent = text;
  });
  if (job.status === 'queued' || job.status === 'running') follow(job);
  applyFilter(row);
}

function applyFilter(row: HTMLTableRowElement): void {
  const status = byId<HTMLSelectElement>('filter-status').value;
  const repo = byId<HTMLInputElement>('filter-repo').value.trim().toLowerCase();
  const source = byId<HTMLSelectElement>('filter-source').value;
  row.hidden = Boolean(
    (status && row.dataset.status !== status) ||
    (repo && !(row.dataset.repo ?? '').includes(repo)) ||
    (source && !(row.dataset.source ?? '').startsWith(source)),
  );
}
for (const id of ['filter-status', 'filter-repo', 'filter-source'])
  byId(id).addEventListener('input', () => rows.forEach(applyFilter));
byId('jobs-filter').addEventListener('submit', (e) => e.preventDefault());

function follow(job: JobView): void {
  if (streams.has(job.id)) return;
  const source = new EventSource(`jobs/${encodeURIComponent(job.id)}/events`);
  streams.set(job.id, source);
  const end = async (): Promise<void> => {
    source.close();
    streams.delete(job.id);
    const answer = await fetch(`jobs/${encodeURIComponent(job.id)}`);
    if (answer.ok) render((await answer.json()) as JobView);
    healthSoon();
  };
  // Every message is a data-only event whose JSON names it (docs/http-api.md).
  source.onmessage = (e: MessageEvent<string>) => {
    const data = JSON.parse(e.data) as JobEventData;
    if (data.event === 'complete' || data.event === 'error') return void end();
    if (data.event !== 'detection') render({ ...job, status: 'running' }, describeEvent(data));
  };
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) void end();
  };
}

async function refresh(): Promise<void> {
  const answer = await fetch('jobs?limit=50');
  if (!answer.ok) return;
  const jobs = (await answer.json()) as JobView[];
  for (const job of jobs.reverse()) if (!streams.has(job.id)) render(job);
  byId('jobs-status').textContent = `Updated ${new Date().toLocaleTimeString()}`;
  healthSoon();
}

byId('analyze').addEventListener('submit', async (e) => {
  e.preventDefault();
  const kind = byId<HTMLSelectElement>('analyze-kind').value;
  const target = byId<HTMLInputElement>('analyze-url').value;
  // An organization is named `forge:owner` (github:acme, gitlab:group/sub), as `cadence scan` takes it.
  const colon = target.indexOf(':');
  const body =
    kind === 'organization' ? { forge: target.slice(0, colon), owner: target.slice(colon + 1) } : { url: target };
  const answer = await fetch(`api/analyze/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const accepted = (await answer.json()) as { id: string; message?: string };
  byId('analyze-status').textContent = answer.ok ? `Queued ${accepted.id.slice(0, 8)}` : accepted.message || 'refused';
  if (answer.ok) {
    const job = (await (await fetch(`jobs/${encodeURIComponent(accepted.id)}`)).json()) as JobView;
    render(job);
  }
});

interface StrategyView {
  readonly name?: string;
  readonly plugin?: string;
  readonly enabled?: boolean;
}

void (async () => {
  const plugins = await fetch('api/plugins');
  if (plugins.ok) {
    const list = (await plugins.json()) as StrategyView[] | { strategies?: StrategyView[]; plugins?: StrategyView[] };
    const items = Array.isArray(list) ? list : list.strategies || list.plugins || [];
    for (const p of items) {
      const li = document.createElement('li');
      li.textContent = (p.name || '') + (p.plugin ? ` (${p.plugin})` : '') + (p.enabled === false ? ', disabled' : '');
      byId('plugins').append(li);
    }
  }
  await refreshHealth();
})();

/** The health line (running, waiting, processed): read again whenever a job changes, at most once a second. */
let healthDue: ReturnType<typeof setTimeout> | null = null;
async function refreshHealth(): Promise<void> {
  const health = await fetch('health');
  const h = (await health.json().catch(() => ({}))) as {
    status?: string;
    active_jobs?: number;
    queue_depth?: number;
    jobs_processed?: number;
  };
  byId('health').textContent =
    `Status ${h.status || health.status}, ${h.active_jobs ?? '?'} running, ${h.queue_depth ?? '?'} waiting, ${h.jobs_processed ?? '?'} processed`;
}
function healthSoon(): void {
  if (healthDue !== null) return;
  healthDue = setTimeout(() => {
    healthDue = null;
    void refreshHealth();
  }, 1000);
}

// New jobs and status changes from anywhere (webhooks, other servers) arrive on the server's job
// feed; the list is also read again every 30 s in case the feed was away.
const feed = new EventSource('events');
feed.onmessage = (e: MessageEvent<string>) => {
  const data = JSON.parse(e.data) as { event: string; job: JobView };
  if (data.event === 'job' && !streams.has(data.job.id)) render(data.job);
  // A job started or ended: the counts of the health line moved with it.
  if (data.event === 'job') healthSoon();
};
void refresh();
setInterval(() => void refresh(), 30000);
