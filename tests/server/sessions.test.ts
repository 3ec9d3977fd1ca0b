import { expect } from 'chai';
import {
  makeTempDir,
  startCadenceServer,
  startRedisServer,
  type RedisServer,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';

const TOKEN = 'sessions-test-token-0123456789';

async function signIn(server: ServerProcess): Promise<string> {
  const login = await fetch(`${server.url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: TOKEN }),
  });
  expect(login.status).to.equal(204);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

const jobsWith = async (server: ServerProcess, cookie: string): Promise<number> =>
  (await fetch(`${server.url}/jobs`, { headers: { cookie } })).status;

const signOut = async (server: ServerProcess, cookie: string): Promise<void> => {
  expect((await fetch(`${server.url}/session`, { method: 'DELETE', headers: { cookie } })).status).to.equal(204);
};

/** DELETE /session ends the session itself: a copy of the cookie kept elsewhere stops working at once. */
describe('server: signing out of the dashboard', function () {
  this.timeout(60_000);
  let work: TempDir;
  let redis: RedisServer | null = null;
  const processes: ServerProcess[] = [];
  before(async () => {
    work = await makeTempDir('cadence-sessions-');
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await redis?.close();
    await work.remove();
  });

  it('refuses a signed-out cookie on the API and the dashboard, and keeps other sessions', async () => {
    const server = await startCadenceServer({ cwd: work.path, env: { CADENCE_API_TOKEN: TOKEN } });
    processes.push(server);
    const kept = await signIn(server);
    const ended = await signIn(server);
    expect(ended).to.not.equal(kept);
    expect(await jobsWith(server, ended)).to.equal(200);
    await signOut(server, ended);
    expect(await jobsWith(server, ended)).to.equal(401);
    expect(await (await fetch(`${server.url}/`, { headers: { cookie: ended } })).text()).to.contain('id="login"');
    expect(await jobsWith(server, kept)).to.equal(200);
    // A forged or expired cookie ends nothing and is refused anyway.
    await signOut(
      server,
      'cadence_session=v2.AAAAAAAAAAAAAAAAAAAAAA.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    expect(await jobsWith(server, kept)).to.equal(200);
  });

  it('on Redis, a sign-out on one server ends the session on every server of the deployment, across restarts', async () => {
    redis = await startRedisServer();
    const env = {
      CADENCE_API_TOKEN: TOKEN,
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redis.url,
      CADENCE_REDIS_KEY_PREFIX: 'sessions',
    };
    const first = await startCadenceServer({ cwd: work.path, env });
    const second = await startCadenceServer({ cwd: work.path, env });
    processes.push(first, second);
    const cookie = await signIn(first);
    expect(await jobsWith(second, cookie)).to.equal(200);
    await signOut(first, cookie);
    expect(await jobsWith(second, cookie)).to.equal(401);
    await second.stop();
    const restarted = await startCadenceServer({ cwd: work.path, env });
    processes.push(restarted);
    expect(await jobsWith(restarted, cookie)).to.equal(401);
  });
});
