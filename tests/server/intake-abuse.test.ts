import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { makeTempDir, startCadenceServer, type ServerOptions, type ServerProcess, type TempDir } from '@cadence/test-support';
import { gitlabPushPayload } from './fixtures.js';

/**
 * What one sender may take from webhook intake and from the server's connections (security issue,
 * finding 4 and part of finding 6): real server processes on 127.0.0.1, clients bound to other
 * loopback addresses (127.0.0.2 to 127.0.0.5) where a test needs several.
 */
describe('server: webhook intake under slow senders, connections per client, cross-site webhooks', function () {
  this.timeout(120_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-intake-');
  });
  after(async () => {
    await work?.remove();
  });

  async function withServer(options: Omit<ServerOptions, 'cwd'>, test: (server: ServerProcess) => Promise<void>): Promise<void> {
    const server = await startCadenceServer({ ...options, cwd: await mkdtemp(`${work.path}/srv-`) });
    try {
      await test(server);
    } finally {
      await server.stop('SIGKILL');
    }
  }

  describe('cross-site requests to the webhooks', () => {
    // A page elsewhere can POST a form to an instance started without a secret: the browser marks it.
    const form = (headers: Record<string, string>): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ payload: JSON.stringify(gitlabPushPayload('https://gitlab.example/acme/human.git', '1'.repeat(40), '2'.repeat(40))) }).toString(),
    });

    for (const [label, headers] of [
      ['Sec-Fetch-Site: cross-site with another Origin', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
      ['Origin of another site alone', { origin: 'https://evil.example' }],
      ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ] as const) {
      it(`refuses a form POST to /webhooks/gitlab (${label}) with 403 forbidden and starts no job; /webhooks/github the same`, async () => {
        await withServer({ secret: null, args: ['--insecure-no-secret'] }, async (server) => {
          for (const path of ['/webhooks/gitlab', '/webhooks/github', '/WEBHOOKS/gitlab/']) {
            const answer = await server.json<{ error: string; message: string }>(path, form({ ...headers, ...(path.includes('github') ? { 'x-github-event': 'push' } : {}) }));
            expect(answer.status, path).to.equal(403);
            expect(answer.body.error).to.equal('forbidden');
            expect(answer.body.message).to.be.a('string');
          }
          expect((await server.json<unknown[]>('/jobs')).body).to.deep.equal([]);
        });
      });
    }

    it('still accepts what a forge sends (neither header) on the same instance', async () => {
      await withServer({ secret: null, args: ['--insecure-no-secret'] }, async (server) => {
        const answer = await server.json<{ id: string }>('/webhooks/gitlab', form({ 'x-gitlab-event': 'Push Hook' }));
        expect(answer.status).to.equal(202);
        expect(answer.body.id).to.be.a('string');
      });
    });
  });
});
