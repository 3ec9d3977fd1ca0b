import { createHash } from 'node:crypto';

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
    row.replaceChildren();
    const id = document.createElement('td');
    if (job.status === 'completed') {
      const a = document.createElement('a');
      a.href = 'jobs/' + encodeURIComponent(job.id) + '/report';
      a.textContent = job.id.slice(0, 8);
      id.append(a);
    } else id.textContent = job.id.slice(0, 8);
    row.append(id, cell(job.status + (progress ? ': ' + progress : '')), cell(job.repo), cell(job.source));
    const result = job.result || {};
    row.append(cell(typeof result.overall_score === 'number' ? result.overall_score.toFixed(2) : ''), cell(result.assessment || ''), cell(seconds(job)));
    if (job.status === 'queued' || job.status === 'running') follow(job);
  }
  function follow(job) {
    if (streams.has(job.id)) return;
    const source = new EventSource('jobs/' + encodeURIComponent(job.id) + '/events');
    streams.set(job.id, source);
    const update = (message) => render({ ...job, status: 'running' }, message);
    for (const name of ['start', 'fetch', 'progress', 'strategy', 'ai_analysis']) {
      source.addEventListener(name, (e) => {
        const data = JSON.parse(e.data);
        update(data.event === 'strategy' ? 'strategy ' + (data.name || data.strategy || '') : (data.message || data.event));
      });
    }
    const end = async () => {
      source.close();
      streams.delete(job.id);
      const answer = await fetch('jobs/' + encodeURIComponent(job.id));
      if (answer.ok) render(await answer.json());
    };
    source.addEventListener('complete', end);
    source.addEventListener('error', end);
  }
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
  refresh();
  setInterval(refresh, 10000);
})();`;

export const DASHBOARD_SCRIPT_HASH = `'sha256-${createHash('sha256').update(DASHBOARD_SCRIPT).digest('base64')}'`;

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

export const LOGIN_SCRIPT_HASH = `'sha256-${createHash('sha256').update(LOGIN_SCRIPT).digest('base64')}'`;
