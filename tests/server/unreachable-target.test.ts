import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loopbackNamespaceUnavailable,
  makeTempDir,
  runInLoopbackNamespace,
  type TempDir,
} from '@cadence-detect/test-support';
import type { TargetOutcome } from './netns/unreachable-target.js';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const script = fileURLToPath(new URL('./netns/unreachable-target.ts', import.meta.url));
// A name for a public address, answered by the namespace's own /etc/hosts: the pinned-address lookup
// only runs for names (an address literal is connected to without a lookup).
const HOSTS = '127.0.0.1 localhost\n8.8.8.8 unreachable.cadence.test\n';
describe('server: a website target that cannot be routed to', function () {
  this.timeout(120_000);
  let work: TempDir;

  before(async function () {
    // Failing rather than skipping: without the namespace this test would need the real network.
    const unavailable = loopbackNamespaceUnavailable(true);
    if (unavailable) throw new Error(`this test needs user, network and mount namespaces and iproute2: ${unavailable}`);
    work = await makeTempDir('cadence-unreachable-');
  });
  after(async () => {
    await work?.remove();
  });

  it('fails the job with ERR_CONNECTION_REFUSED on ENETUNREACH, and the server keeps answering', async () => {
    const hostsFile = path.join(work.path, 'hosts');
    await writeFile(hostsFile, HOSTS);
    const urls = ['http://unreachable.cadence.test:9/', 'http://8.8.8.8:9/'];
    // Loopback only, so 8.8.8.8 has no route (ENETUNREACH at connect time) and nothing can leave the machine.
    const run = await runInLoopbackNamespace([process.execPath, '--import', 'tsx', script, ...urls], {
      hostsFile,
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      timeoutMs: 90_000,
    });
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
      expect(outcome, JSON.stringify(outcome)).to.deep.include({
        status: 'failed',
        errorCode: 'ERR_CONNECTION_REFUSED',
        healthStatus: 200,
        serverExitCode: null,
        failure: null,
      });
    }
  });
});
