/**
 * Runs inside a network namespace that has only loopback (tests/security/hostile-urls.test.ts starts
 * it): hostile repository URLs against real git, real ssh and the real server, with recorders on
 * every loopback address. Prints one JSON object on the last line of stdout.
 *   mode `table`: every hostile spelling under the default policy; no listener may be reached.
 *   mode `fuzz`: fast-check spellings under a policy that allows 127.0.0.2 only; an accepted spelling
 *     may reach a listener only at the address the guard checked and the port the URL names.
 *   mode `server`: the hostile spellings through the real server (analyze, stream, GitHub and GitLab pushes).
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { CadenceError } from '@cadence-detect/errors';
import { openRepository, parseRepositoryUrl, type RepositoryLocator } from '@cadence-detect/git-source';
import { parseAddress, resolveAndCheck, STRICT_POLICY, type NetworkPolicy } from '@cadence-detect/network-guard';
import { assertLoopbackOnly, makeTempDir, startCadenceServer, waitForJob } from '@cadence-detect/test-support';
import { hostileUrls } from './hostile-url-table.js';
import { DECOY, reached, startProbeListeners, type ProbeListeners } from './url-probe-fixtures.js';

interface CaseOutcome {
  readonly url: string;
  /** `refused` (the URL rules), an error code from opening, or `cloned`. */
  readonly outcome: string;
  readonly reached: string[];
}

const ALLOW_127_0_0_2: NetworkPolicy = { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.2/32'] };

async function attempt(
  url: string,
  policy: NetworkPolicy,
  listeners: ProbeListeners,
): Promise<CaseOutcome & { locator: RepositoryLocator | null }> {
  const before = listeners.counts();
  let locator: RepositoryLocator | null = null;
  let outcome = 'cloned';
  try {
    locator = parseRepositoryUrl(url, { allowLocalPaths: false });
    const repo = await openRepository(locator, { timeoutMs: 3000, maxSizeBytes: 50 * 1024 * 1024, policy });
    await repo.dispose();
  } catch (error) {
    outcome =
      error instanceof CadenceError
        ? error.code === 'ERR_INVALID_SOURCE' && locator === null
          ? 'refused'
          : error.code
        : `thrown: ${String(error)}`;
  }
  return { url, outcome, reached: reached(before, listeners.counts()), locator };
}

async function table(listeners: ProbeListeners): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  for (const url of hostileUrls(listeners.ports)) {
    const { locator: _locator, ...rest } = await attempt(url, STRICT_POLICY, listeners);
    outcomes.push(rest);
  }
  // Controls: the same listeners are reachable when the policy allows them, so a silent recorder means something.
  for (const url of [
    `git://127.0.0.2:${listeners.ports.git}/acme/human.git`,
    `http://127.0.0.2:${listeners.ports.http}/acme/human.git`,
    `ssh://git@127.0.0.2:${listeners.ports.ssh}/x.git`,
  ]) {
    const { locator: _locator, ...rest } = await attempt(url, ALLOW_127_0_0_2, listeners);
    outcomes.push({ ...rest, url: `control ${url}` });
  }
  return outcomes;
}

/** Pieces hostile spellings are made of: separators, encodings, the loopback and decoy hosts, ports. */
function spellings(ports: ProbeListeners['ports']): fc.Arbitrary<string> {
  const port = fc.constantFrom(String(ports.git), String(ports.http), String(ports.ssh));
  const host = fc.constantFrom(
    '127.0.0.1',
    '127.0.0.2',
    DECOY,
    '[::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:127.0.0.2]',
    '2130706433',
    '0x7f000001',
    '127.1',
    '0177.0.0.1',
    'localhost',
    '127.0.0.2.',
    '[0:0:0:0:0:ffff:7f00:2]',
  );
  const hostPort = fc.oneof(
    host,
    fc.tuple(host, port).map(([h, p]) => `${h}:${p}`),
  );
  const separator = fc.constantFrom(
    '@',
    '\\',
    '\\\\',
    '%2F',
    '%2f',
    '%5C',
    '%40',
    '%252F',
    '/',
    ':',
    '#',
    '?',
    '\t',
    '%00',
    '@@',
    ';',
    ',',
    '%20',
    ' ',
    '[',
    ']',
  );
  const userPart = fc.oneof(
    fc.constant(''),
    fc.tuple(hostPort, separator).map(([h, s]) => `${h}${s}`),
    fc.tuple(fc.constantFrom('git', 'u', 'u:p', 'x-access-token:abc'), fc.constant('@')).map(([u, s]) => `${u}${s}`),
  );
  const scheme = fc.constantFrom(
    'http://',
    'https://',
    'git://',
    'ssh://',
    'HTTP://',
    'git+ssh://',
    'ssh:/',
    'http:\\\\',
  );
  const repoPath = fc.constantFrom(
    '/acme/human.git',
    '/x.git',
    '\\acme\\human.git',
    '/@127.0.0.1/x.git',
    '/%2e%2e/x.git',
    ':x.git',
    '/~git/x.git',
  );
  const urlForm = fc.tuple(scheme, userPart, hostPort, repoPath).map(([s, u, h, p]) => `${s}${u}${h}${p}`);
  const scpForm = fc
    .tuple(
      fc.constantFrom('git', 'u', '-oProxyCommand=x', 'git%40127.0.0.1'),
      host,
      fc.constantFrom(':x.git', ':/x.git', ':-x', ':acme/human.git'),
    )
    .map(([u, h, p]) => `${u}@${h}${p}`);
  // Well-formed spellings aimed at the allowed address, so that accepted ones also connect and the oracle has work.
  const aimed = fc
    .tuple(
      fc.constantFrom(
        ['http://', ports.http],
        ['git://', ports.git],
        ['ssh://git@', ports.ssh],
        ['HTTP://', ports.http],
      ),
      fc.constantFrom('127.0.0.2', '[::ffff:127.0.0.2]', '127.0.0.1', '[::1]'),
      fc.constantFrom('', '/', '\\', '%2F@' + DECOY, '@' + DECOY),
      repoPath,
    )
    .map(([[s, p], h, junk, path]) => `${s}${h}:${p}${junk}${path}`);
  return fc.oneof(
    { arbitrary: urlForm, weight: 3 },
    { arbitrary: scpForm, weight: 1 },
    { arbitrary: aimed, weight: 2 },
  );
}

interface FuzzSummary {
  runs: number;
  accepted: number;
  connected: number;
  failure: string | null;
}

async function fuzz(listeners: ProbeListeners, runs: number, seed: number): Promise<FuzzSummary> {
  const summary: FuzzSummary = { runs: 0, accepted: 0, connected: 0, failure: null };
  try {
    await fc.assert(
      fc.asyncProperty(spellings(listeners.ports), async (url) => {
        summary.runs++;
        const result = await attempt(url, ALLOW_127_0_0_2, listeners);
        if (!result.locator || result.locator.kind !== 'remote') return;
        summary.accepted++;
        if (result.reached.length === 0) return;
        summary.connected++;
        let checked: string;
        try {
          checked = listenerAddress((await resolveAndCheck(result.locator.host, ALLOW_127_0_0_2)).address);
        } catch {
          throw new Error(`${JSON.stringify(url)} was refused by the guard yet reached ${result.reached.join(', ')}`);
        }
        const allowed = `${checked}|${result.locator.port ?? 22}`;
        const stray = result.reached.filter((key) => key !== allowed);
        if (stray.length > 0)
          throw new Error(`${JSON.stringify(url)}: the guard checked ${allowed} but git reached ${stray.join(', ')}`);
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
  } catch (error) {
    summary.failure = error instanceof Error ? error.message.split('\n').slice(0, 6).join('\n') : String(error);
  }
  return summary;
}

/** The listener a connection to `address` lands on: an IPv4-mapped IPv6 address reaches the IPv4 listener. */
function listenerAddress(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed || parsed.family === 4) return address;
  const mapped =
    parsed.bytes.subarray(0, 10).every((b) => b === 0) && parsed.bytes[10] === 0xff && parsed.bytes[11] === 0xff;
  if (mapped) return Array.from(parsed.bytes.subarray(12)).join('.');
  return parsed.bytes.subarray(0, 15).every((b) => b === 0) && parsed.bytes[15] === 1 ? '::1' : address;
}

const SECRET = 'probe-webhook-secret-0123456789';

/** The three reported spellings and their forge variants through the real server process. */
async function server(listeners: ProbeListeners, root: string): Promise<CaseOutcome[]> {
  // The namespace has a loopback of its own: the run's Redis (CADENCE_TEST_REDIS_URL) is not in it.
  const cadence = await startCadenceServer({ cwd: root, secret: SECRET, env: { CADENCE_QUEUE_BACKEND: 'memory' } });
  const outcomes: CaseOutcome[] = [];
  try {
    for (const url of hostileUrls(listeners.ports).slice(0, 6)) {
      const before = listeners.counts();
      const requests: Array<{ label: string; path: string; body: string; headers: Record<string, string> }> = [
        {
          label: 'analyze',
          path: '/api/analyze/repository',
          body: JSON.stringify({ url }),
          headers: { 'content-type': 'application/json' },
        },
        githubPush(url),
        gitlabPush(url),
      ];
      for (const request of requests) {
        const response = await cadence.json<{ id?: string; error?: string }>(request.path, {
          method: 'POST',
          body: request.body,
          headers: request.headers,
        });
        let outcome = `${response.status} ${response.body.error ?? ''}`.trim();
        if (response.status === 202 && response.body.id) {
          const job = await waitForJob<{ status: string; error_code: string | null }>(
            cadence,
            response.body.id,
            20_000,
          );
          outcome = `${job.status} ${job.error_code ?? ''}`.trim();
        }
        outcomes.push({ url: `${request.label} ${url}`, outcome, reached: reached(before, listeners.counts()) });
      }
      const stream = await cadence.request(`/api/stream/repository?url=${encodeURIComponent(url)}`);
      const text = await stream.text();
      outcomes.push({
        url: `stream ${url}`,
        outcome: `${stream.status} ${/"error":"([A-Za-z_]+)"/.exec(text)?.[1] ?? ''}`.trim(),
        reached: reached(before, listeners.counts()),
      });
    }
    const health = await cadence.json<{ status: string }>('/health');
    outcomes.push({ url: 'health after the hostile requests', outcome: health.body.status, reached: [] });
  } finally {
    await cadence.stop();
  }
  return outcomes;
}

function githubPush(url: string): { label: string; path: string; body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: 'a'.repeat(40),
    repository: { full_name: 'acme/human', clone_url: url },
    commits: [],
  });
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return {
    label: 'github push',
    path: '/webhooks/github',
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': signature,
      'x-github-delivery': `d-${Math.random()}`,
    },
  };
}

function gitlabPush(url: string): { label: string; path: string; body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    object_kind: 'push',
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: 'a'.repeat(40),
    project: { path_with_namespace: 'acme/human', git_http_url: url },
    commits: [],
  });
  return {
    label: 'gitlab push',
    path: '/webhooks/gitlab',
    body,
    headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET },
  };
}

async function main(): Promise<void> {
  assertLoopbackOnly();
  const [mode = 'table', runs = '150', seed = String(Date.now() % 100_000)] = process.argv.slice(2);
  const temp = await makeTempDir('cadence-url-probe-');
  const listeners = await startProbeListeners(temp.path);
  try {
    let output: unknown;
    if (mode === 'table') output = await table(listeners);
    else if (mode === 'fuzz') output = { seed: Number(seed), ...(await fuzz(listeners, Number(runs), Number(seed))) };
    else output = await server(listeners, temp.path);
    process.stdout.write(`\n${JSON.stringify(output)}\n`);
  } finally {
    await listeners.close();
    await temp.remove();
  }
}

await main();
