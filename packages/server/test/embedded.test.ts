import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine } from '@cadence-detect/engine';
import { createLogger } from '@cadence-detect/logger';
import github from '@cadence-detect/plugin-github';
import gitlab from '@cadence-detect/plugin-gitlab';
import size from '@cadence-detect/plugin-size';
import {
  eventually,
  burstHistory,
  createRepository,
  exportRepository,
  makeTempDir,
  startGitDaemon,
  type GitDaemon,
  type TempDir,
} from '@cadence-detect/test-support';
import { createServer, type CadenceServer } from '../src/index.js';

const TOKEN = 'embedded-test-token-0123456789';

/** The server as a library, in this process: what an embedding program does with @cadence-detect/server. */
describe('@cadence-detect/server embedded in another program', function () {
  this.timeout(30_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let cadence: CadenceServer;
  let host: http.Server;
  let base: string;

  before(async () => {
    work = await makeTempDir('cadence-embedded-');
    const source = `${work.path}/source`;
    await import('node:fs/promises').then((fs) => fs.mkdir(source));
    await createRepository(source, burstHistory(6));
    await exportRepository(`${work.path}/served`, 'acme/burst.git', source);
    daemon = await startGitDaemon(`${work.path}/served`);
    const { config } = await loadConfig({
      cwd: work.path,
      env: {},
      flags: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        api: { token: TOKEN },
        webhook: { secret: 'embedded-secret-0123456789' },
      },
    });
    const logger = createLogger({
      level: 'error',
      stream: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    const engine = createEngine({
      config,
      pluginConfig: toPluginConfigView(config),
      logger,
      plugins: [
        { plugin: size, packageName: '@cadence-detect/plugin-size', version: '0.0.0', source: 'builtin' },
        // The forges the server takes webhooks from are plugins too: an embedding program loads the ones it wants.
        { plugin: github, packageName: '@cadence-detect/plugin-github', version: '0.0.0', source: 'builtin' },
        { plugin: gitlab, packageName: '@cadence-detect/plugin-gitlab', version: '0.0.0', source: 'builtin' },
      ],
    });
    cadence = createServer({ config, engine, logger });
    // The embedding program's own http server, with Cadence's request listener mounted in it.
    host = http.createServer(cadence.listener);
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  after(async () => {
    await cadence?.shutdown();
    await new Promise((resolve) => host?.close(resolve));
    await daemon?.close();
    await work?.remove();
  });

  const get = async (path: string, token: string | null = TOKEN) => {
    const response = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answers /health without the token and the contract\u2019s 404 body', async () => {
    expect((await get('/health', null)).body).to.include({ status: 'ok' });
    expect(await get('/nothing/here')).to.deep.include({
      status: 404,
      body: { error: 'not_found', message: 'No route for GET /nothing/here' },
    });
  });

  it('a guessed path names the routes under it (POST /api/analyze)', async () => {
    const response = await fetch(`${base}/api/analyze`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"url":"x"}',
    });
    expect(response.status).to.equal(404);
    expect(await response.json()).to.deep.equal({
      error: 'not_found',
      message:
        'No route for POST /api/analyze; routes under it: POST /api/analyze/repository, POST /api/analyze/website, POST /api/analyze/organization',
    });
  });

  it('requires the API token on the job routes', async () => {
    expect((await get('/jobs', null)).status).to.equal(401);
    expect((await get('/JOBS', 'wrong-token')).status).to.equal(401);
    expect((await get('/jobs')).status).to.equal(200);
  });

  it("puts only /health, the webhooks and the dashboard's sign-in on the open router, and every other route behind the token", async () => {
    const open = [...new Set(cadence.routes.filter((r) => !r.guarded).map((r) => r.path))].sort();
    expect(open).to.deep.equal(['/', '/assets/:file', '/health', '/session', '/webhooks/github', '/webhooks/gitlab']);
    // Without the token (or its session cookie) `/` is the sign-in page: it shows no job.
    const page = await fetch(`${base}/`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.contain('id="login"').and.not.contain('id="jobs-body"');
    expect(
      (
        await fetch(`${base}/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: 'wrong' }),
        })
      ).status,
    ).to.equal(401);
    const guarded = cadence.routes.filter((r) => r.guarded);
    expect(guarded.length).to.be.greaterThan(10);
    for (const route of guarded) {
      for (const method of route.methods.filter((m) => m !== 'HEAD')) {
        const path = route.path.replace(':id', '00000000-0000-0000-0000-000000000000');
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        expect(response.status, `${method} ${path}`).to.equal(401);
        await response.body?.cancel();
      }
    }
  });

  it("serves the pages' style sheet and script under content-hashed names, cached for a year, revalidated by ETag", async () => {
    const html = await (await fetch(`${base}/`)).text();
    const links = [...html.matchAll(/(?:href|src)="(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(links).to.have.length(2);
    for (const link of links) {
      const first = await fetch(`${base}/${link}`);
      expect(first.status, link).to.equal(200);
      expect(first.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(first.headers.get('content-type')).to.match(link.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      const etag = first.headers.get('etag')!;
      expect(link).to.contain(etag.replaceAll('"', ''));
      expect((await first.text()).length).to.be.greaterThan(100);
      // As a browser revalidates (fetch() alone would add `Cache-Control: no-cache`, which forbids a 304).
      const again = await fetch(`${base}/${link}`, {
        headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' },
      });
      expect(again.status).to.equal(304);
      expect(await again.text()).to.equal('');
    }
    const stale = await fetch(`${base}/assets/login.0000000000000000.js`);
    expect(stale.status).to.equal(404);
    expect(await stale.json()).to.include({ error: 'not_found' });
    expect((await fetch(`${base}/assets/..%2Fpackage.json`)).status).to.equal(404);
  });

  it('runs an analysis against a repository over git://, through the engine it was given', async () => {
    const response = await fetch(`${base}/api/analyze/repository`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ url: daemon.url('acme/burst.git') }),
    });
    expect(response.status).to.equal(202);
    const { id } = (await response.json()) as { id: string };
    const job = await eventually(async () => {
      const { body } = await get(`/jobs/${id}`);
      return ['completed', 'failed'].includes(String(body.status)) && body;
    }, 'the job\u2019s end');
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    const result = job.result as { total_commits: number; strategy_results: Array<{ name: string }> };
    expect(result.total_commits).to.equal(6);
    expect(result.strategy_results.map((s) => s.name)).to.deep.equal(['size']);
    expect((await cadence.jobs.health()).jobs_processed).to.be.at.least(1);
  });
});
