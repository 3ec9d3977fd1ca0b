/**
 * One step of a job's event stream as a line of text: the jobs list's status cell and the job
 * page's progress list say it the same way. Shared source, inlined into both scripts.
 */
const DESCRIBE_EVENT = `function describeEvent(data) {
    if (data.event === 'strategy') return 'strategy ' + data.name + ': score ' + Number(data.score).toFixed(2) + ', ' + data.detections + ' detections';
    if (data.event === 'progress') return (data.strategy ? data.strategy + ': ' : '') + data.commits_analyzed + ' of ' + data.total_commits + ' commits' + (typeof data.detections === 'number' ? ', ' + data.detections + ' detections' : '');
    if (data.event === 'parse') return 'parsed: ' + data.elements + ' elements';
    return data.event + (data.message ? ': ' + data.message : data.repo ? ': ' + data.repo : data.url ? ': ' + data.url : '');
  }`;

/**
 * The dashboard's script: the jobs list, each unfinished job followed over its event stream
 * (GET /jobs/:id/events), the analyze form, plugins and health. Every value from a job goes into
 * the page as text (textContent), never as markup.
 */
export const DASHBOARD_SCRIPT = `(() => {
  const $ = (id) => document.getElementById(id);
  const rows = new Map();
  const streams = new Map();
  const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
  function seconds(job) {
    if (!job.started_at) return '';
    const end = job.finished_at ? Date.parse(job.finished_at) : Date.now();
    return ((end - Date.parse(job.started_at)) / 1000).toFixed(1) + ' s';
  }
  function render(job, progress) {
    let row = rows.get(job.id);
    if (!row) {
      row = document.createElement('tr');
      rows.set(job.id, row);
      $('jobs-body').prepend(row);
    }
    row.dataset.status = job.status;
    row.dataset.repo = String(job.repo || '').toLowerCase();
    row.dataset.source = String(job.source || '');
    row.replaceChildren();
    const id = document.createElement('td');
    const a = document.createElement('a');
    a.href = 'jobs/' + encodeURIComponent(job.id) + '/report';
    a.textContent = job.id.slice(0, 8);
    id.append(a);
    row.append(id, cell(job.status + (progress ? ': ' + progress : '')), cell(job.repo), cell(job.source));
    const result = job.result || {};
    row.append(cell(typeof result.overall_score === 'number' ? result.overall_score.toFixed(2) : ''), cell(result.assessment || ''), cell(seconds(job)));
    if (job.status === 'queued' || job.status === 'running') follow(job);
    applyFilter(row);
  }
  function applyFilter(row) {
    const status = $('filter-status').value;
    const repo = $('filter-repo').value.trim().toLowerCase();
    const source = $('filter-source').value;
    row.hidden = Boolean((status && row.dataset.status !== status) || (repo && !row.dataset.repo.includes(repo)) || (source && !row.dataset.source.startsWith(source)));
  }
  for (const id of ['filter-status', 'filter-repo', 'filter-source']) $(id).addEventListener('input', () => rows.forEach(applyFilter));
  $('jobs-filter').addEventListener('submit', (e) => e.preventDefault());
  function follow(job) {
    if (streams.has(job.id)) return;
    const source = new EventSource('jobs/' + encodeURIComponent(job.id) + '/events');
    streams.set(job.id, source);
    const end = async () => {
      source.close();
      streams.delete(job.id);
      const answer = await fetch('jobs/' + encodeURIComponent(job.id));
      if (answer.ok) render(await answer.json());
    };
    // Every message is a data-only event whose JSON names it (docs/http-api.md).
    source.onmessage = (e) => {
      const data = JSON.parse(e.data);
      if (data.event === 'complete' || data.event === 'error') return void end();
      if (data.event !== 'detection') render({ ...job, status: 'running' }, describeEvent(data));
    };
    source.onerror = () => { if (source.readyState === EventSource.CLOSED) void end(); };
  }
  ${DESCRIBE_EVENT}
  async function refresh() {
    const answer = await fetch('jobs?limit=50');
    if (!answer.ok) return;
    const jobs = await answer.json();
    for (const job of jobs.reverse()) if (!streams.has(job.id)) render(job);
    $('jobs-status').textContent = 'Updated ' + new Date().toLocaleTimeString();
  }
  $('analyze').addEventListener('submit', async (e) => {
    e.preventDefault();
    const kind = $('analyze-kind').value;
    const answer = await fetch('api/analyze/' + kind, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: $('analyze-url').value }) });
    const body = await answer.json();
    $('analyze-status').textContent = answer.ok ? 'Queued ' + body.id.slice(0, 8) : (body.message || 'refused');
    if (answer.ok) {
      const job = await (await fetch('jobs/' + encodeURIComponent(body.id))).json();
      render(job);
    }
  });
  (async () => {
    const plugins = await fetch('api/plugins');
    if (plugins.ok) {
      const list = await plugins.json();
      const items = Array.isArray(list) ? list : (list.strategies || list.plugins || []);
      for (const p of items) {
        const li = document.createElement('li');
        li.textContent = (p.name || '') + (p.plugin ? ' (' + p.plugin + ')' : '') + (p.enabled === false ? ', disabled' : '');
        $('plugins').append(li);
      }
    }
    const health = await fetch('health');
    const h = await health.json().catch(() => ({}));
    $('health').textContent = 'Status ' + (h.status || health.status) + ', ' + (h.active_jobs ?? '?') + ' running, ' + (h.queue_depth ?? '?') + ' waiting, ' + (h.jobs_processed ?? '?') + ' processed';
  })();
  // New jobs and status changes from anywhere (webhooks, other servers) arrive on the server's job
  // feed; the list is also read again every 30 s in case the feed was away.
  const feed = new EventSource('events');
  feed.onmessage = (e) => {
    const data = JSON.parse(e.data);
    if (data.event === 'job' && !streams.has(data.job.id)) render(data.job);
  };
  refresh();
  setInterval(refresh, 30000);
})();`;

/** The token prompt's script: posts the token as JSON and reloads; without it the form posts itself. */
export const LOGIN_SCRIPT = `(() => {
  const form = document.getElementById('login');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const answer = await fetch('session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: document.getElementById('token').value }) });
    if (answer.ok) location.reload();
    else document.getElementById('login-status').textContent = 'That token was not accepted.';
  });
})();`;

/**
 * A running job's page (GET /jobs/:id/report before the report exists): each event of the job's
 * stream as a line of progress (fetch, parse, each strategy), then, on `complete`, the page reloads
 * into the report; on `error`, the failure and its code. Text only, never markup.
 */
export const JOB_SCRIPT = `(() => {
  const $ = (id) => document.getElementById(id);
  const line = (text) => { const li = document.createElement('li'); li.textContent = text; $('progress').append(li); };
  const source = new EventSource('events');
  source.onmessage = (e) => {
    const data = JSON.parse(e.data);
    $('status').textContent = data.event === 'complete' ? 'completed' : data.event === 'error' ? 'failed' : 'running';
    if (data.event === 'complete') { source.close(); line('complete: score ' + Number(data.overall_score).toFixed(2)); location.reload(); return; }
    if (data.event === 'error') { source.close(); line('failed: ' + (data.error || '') + ' ' + (data.message || '')); return; }
    if (data.event !== 'detection') line(describeEvent(data));
  };
  ${DESCRIBE_EVENT}
})();`;
