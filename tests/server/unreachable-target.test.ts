import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, type TempDir } from '@cadence/test-support';
import type { TargetOutcome } from './netns/unreachable-target.js';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const script = fileURLToPath(new URL('./netns/unreachable-target.ts', import.meta.url));
// A name for a public address, answered by the namespace's own /etc/hosts: the pinned-address lookup
// only runs for names (an address literal is connected to without a lookup).
const HOSTS = '127.0.0.1 localhost\n8.8.8.8 unreachable.cadence.test\n';
// `unshare -rnm`: a user, network and mount namespace whose network is loopback only, so 8.8.8.8 has no
// route (ENETUNREACH at connect time) and nothing can leave the machine.
const ISOLATE = 'mount --bind "$0" /etc/hosts && ip link set lo up && exec "$@"';

function runIsolated(hostsFile: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', ['-rnm', 'sh', '-c', ISOLATE, hostsFile, process.execPath, '--import', 'tsx', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 90_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('server: a website target that cannot be routed to', function () {
  this.timeout(120_000);
  let work: TempDir;

  before(async function () {
    const probe = spawnSync('unshare', ['-rnm', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' });
    if (probe.status !== 0) {
      // Failing rather than skipping: without the namespace this test would need the real network.
      throw new Error(`this test needs user, network and mount namespaces (unshare -rnm) and iproute2: ${probe.error?.message ?? probe.stderr.trim()}`);
    }
    work = await makeTempDir('cadence-unreachable-');
  });
  after(async () => {
    await work?.remove();
  });

  it('fails the job with ERR_CONNECTION_REFUSED on ENETUNREACH, and the server keeps answering', async () => {
    const hostsFile = path.join(work.path, 'hosts');
    await writeFile(hostsFile, HOSTS);
    const urls = ['http://unreachable.cadence.test:9/', 'http://8.8.8.8:9/'];
    const run = await runIsolated(hostsFile, [script, ...urls]);
    const last = run.stdout.trim().split('\n').pop() ?? '';
    let report: { outcomes?: TargetOutcome[]; refused?: string };
    try {
      report = JSON.parse(last) as typeof report;
    } catch {
      throw new Error(`the isolated run printed no report (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
    }
    expect(report.refused, 'the check must run isolated').to.equal(undefined);
    expect(report.outcomes!.map((o) => o.url)).to.deep.equal(urls);
    for (const outcome of report.outcomes!) {
      expect(outcome, JSON.stringify(outcome)).to.deep.include({ status: 'failed', errorCode: 'ERR_CONNECTION_REFUSED', healthStatus: 200, serverExitCode: null, failure: null });
    }
  });
});
