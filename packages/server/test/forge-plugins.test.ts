import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine } from '@cadence-detect/engine';
import { createLogger } from '@cadence-detect/logger';
import { definePlugin, type CadencePlugin } from '@cadence-detect/plugin-sdk';
import { constantTimeEqual, payloadText, pushOutcome, pushRange, refuseDelivery } from '@cadence-detect/forge-kit';
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

const TOKEN = 'forge-plugins-api-token-0123456789';
const SECRET = 'forge-plugins-secret-0123456789';
type LoadedPlugin = Parameters<typeof createEngine>[0]['plugins'][number];

/**
 * A forge Cadence does not ship, written as a third party would (a Gitea-like one: the secret as a
 * header, the event in another): the server serves its webhooks at /webhooks/<name> with the same
 * chain as GitHub's and GitLab's, and knows nothing of its wire format.
 */
function teaForge(seen: { options: Readonly<Record<string, unknown>> | null }): CadencePlugin {
  return definePlugin({
    name: 'tea',
    apply() {},
    forge: {
      name: 'tea',
      intake({ options }) {
        seen.options = options;
        return {
          verify(delivery, secret) {
            if (!constantTimeEqual(delivery.header('x-tea-secret'), secret.text))
              throw refuseDelivery(
                403,
                'invalid_token',
                'The X-Tea-Secret header does not match the configured secret',
              );
          },
          parse(delivery) {
            const event = delivery.header('x-tea-event');
            if (event === 'ping') return { kind: 'ping' };
            if (event !== 'push') return { kind: 'ignored-event', event: event || null };
            const payload = delivery.payload();
            const range = pushRange(payload);
            if ('ignored' in range) return { kind: 'ignored', reason: range.ignored };
            const cloneUrl = payloadText(payload, 'clone_url')!;
            return pushOutcome(
              {
                cloneUrl,
                repo: 'acme/burst',
                ...range,
                forge: { forge: 'tea', repository: 'acme/burst', sha: range.after },
              },
              delivery.header('x-tea-delivery'),
            );
          },
        };
      },
    },
  });
}

describe('forge plugins: the server serves the webhooks of whatever forge a plugin declares', function () {
  this.timeout(30_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let cadence: CadenceServer;
  let host: http.Server;
  let base: string;
  let head: string;
  const seen: { options: Readonly<Record<string, unknown>> | null } = { options: null };
  const logger = createLogger({ level: 'error', stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
  const loaded = (plugin: CadencePlugin, options?: Record<string, unknown>): LoadedPlugin => ({
    plugin,
    packageName: `cadence-plugin-${plugin.name}`,
    version: '1.0.0',
    source: 'config',
    ...(options ? { options } : {}),
  });

  async function configured() {
    const { config } = await loadConfig({
      cwd: work.path,
      env: {},
      flags: { security: { allowed_networks: ['127.0.0.0/8'] }, api: { token: TOKEN }, webhook: { secret: SECRET } },
    });
    return config;
  }

  before(async () => {
    work = await makeTempDir('cadence-forge-plugins-');
    const source = `${work.path}/source`;
    await import('node:fs/promises').then((fs) => fs.mkdir(source));
    head = (await createRepository(source, burstHistory(6))).hashes.at(-1)!;
    await exportRepository(`${work.path}/served`, 'acme/burst.git', source);
    daemon = await startGitDaemon(`${work.path}/served`);
    const config = await configured();
    const engine = createEngine({
      config,
      pluginConfig: toPluginConfigView(config),
      logger,
      plugins: [loaded(size), loaded(teaForge(seen), { region: 'eu' })],
    });
    cadence = createServer({ config, engine, logger });
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

  const post = async (headers: Record<string, string>, body: unknown, path = '/webhooks/tea') => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('builds the intake once, from the plugin\u2019s own options, and routes /webhooks/<name> to it (no other forge\u2019s path)', async () => {
    expect(seen.options).to.deep.equal({ region: 'eu' });
    const open = cadence.routes.filter((r) => !r.guarded).map((r) => r.path);
    expect(open).to.include('/webhooks/tea').and.not.include('/webhooks/github');
    expect((await post({}, {}, '/webhooks/github')).status).to.equal(404);
  });

  it('lets the intake refuse a delivery with its own status and error body, before any job', async () => {
    expect(await post({ 'x-tea-secret': 'wrong', 'x-tea-event': 'push' }, {})).to.deep.equal({
      status: 403,
      body: { error: 'invalid_token', message: 'The X-Tea-Secret header does not match the configured secret' },
    });
    const jobs = (await (
      await fetch(`${base}/jobs`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as unknown[];
    expect(jobs).to.have.length(0);
  });

  it('answers a ping, an ignored event and a push that asks for nothing as GitHub\u2019s and GitLab\u2019s are answered', async () => {
    const headers = { 'x-tea-secret': SECRET };
    expect(await post({ ...headers, 'x-tea-event': 'ping' }, {})).to.deep.equal({
      status: 200,
      body: { ok: true, event: 'ping' },
    });
    expect(await post({ ...headers, 'x-tea-event': 'issue' }, {})).to.deep.equal({
      status: 200,
      body: { ignored: true, event: 'issue' },
    });
    expect(
      await post({ ...headers, 'x-tea-event': 'push' }, { ref: 'refs/tags/v1', before: '0'.repeat(40), after: head }),
    ).to.deep.equal({ status: 200, body: { ignored: true, reason: 'tag push' } });
    const bad = await post({ ...headers, 'x-tea-event': 'push' }, { ref: 'refs/heads/main', after: 'not-a-commit' });
    expect(bad).to.deep.include({ status: 400 });
    expect(bad.body).to.include({ error: 'invalid_request' });
  });

  it('makes a job of a push, under the forge\u2019s name and delivery id, that analyzes the pushed commits', async () => {
    const push = {
      ref: 'refs/heads/main',
      before: '0'.repeat(40),
      after: head,
      clone_url: daemon.url('acme/burst.git'),
    };
    const headers = { 'x-tea-secret': SECRET, 'x-tea-event': 'push', 'x-tea-delivery': 'd-1' };
    const first = await post(headers, push);
    expect(first.status).to.equal(202);
    expect(first.body).to.include({ status: 'queued', message: 'Push received; analysis queued' });
    const again = await post(headers, push);
    expect(again.body).to.include({ id: first.body.id, duplicate: true });
    const job = await eventually(async () => {
      const body = (await (
        await fetch(`${base}/jobs/${String(first.body.id)}`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as Record<string, unknown>;
      return ['completed', 'failed'].includes(String(body.status)) && body;
    }, 'the job\u2019s end');
    expect(job).to.include({ status: 'completed', source: 'webhook:tea', repo: 'acme/burst', branch: 'main' });
    expect((job.result as { total_commits: number }).total_commits).to.equal(6);
  });

  it('refuses to start with two plugins declaring one forge, or a forge name that is no path segment', async () => {
    const config = await configured();
    const twice = createEngine({
      config,
      pluginConfig: toPluginConfigView(config),
      logger,
      plugins: [loaded(teaForge(seen)), loaded({ ...teaForge(seen), name: 'tea-too' })],
    });
    expect(() => createServer({ config, engine: twice, logger })).to.throw(/Two plugins declare the forge "tea"/);
    const odd = teaForge(seen);
    const badName = createEngine({
      config,
      pluginConfig: toPluginConfigView(config),
      logger,
      plugins: [loaded({ ...odd, forge: { ...odd.forge!, name: '../x' } })],
    });
    expect(() => createServer({ config, engine: badName, logger })).to.throw(/lower-case letters, digits and dashes/);
  });
});
