import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopbackNamespaceUnavailable, runInLoopbackNamespace } from '@cadence-detect/test-support';
import type { FoundConfigurationReport } from './netns/found-configuration.js';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const script = fileURLToPath(new URL('./netns/found-configuration.ts', import.meta.url));

/**
 * A `.cadence.yaml` the server merely found (its working directory may be anybody's checkout) never
 * runs code, never says where the operator's secrets go and never widens what requests may reach:
 * neither in the main thread nor in the analysis threads, which get the resolved configuration as
 * data. Run isolated, so a regression meets a loopback listener standing for the attacker.
 */
describe('security: configuration the server found, not chosen', function () {
  this.timeout(150_000);

  before(function () {
    // Failing rather than skipping: without the namespace this test would need the real network.
    const unavailable = loopbackNamespaceUnavailable();
    if (unavailable) throw new Error(`this test needs user and network namespaces and iproute2: ${unavailable}`);
  });

  it('loads no plugin from it, sends no key or token to its addresses, and takes its analysis data only', async () => {
    const run = await runInLoopbackNamespace([process.execPath, '--import', 'tsx', script], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      timeoutMs: 140_000,
    });
    const last = run.stdout.trim().split('\n').pop() ?? '';
    let report: FoundConfigurationReport;
    try {
      report = JSON.parse(last) as FoundConfigurationReport;
    } catch {
      throw new Error(`the isolated run printed no report (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
    }
    expect(report.refused, 'the check must run isolated').to.equal(undefined);
    expect(report.markers, 'the found file\u2019s plugin ran').to.deep.equal([]);
    expect(report.leaked, 'a secret reached the found file\u2019s address').to.deep.equal([]);
    expect(report.attackerRequests).to.equal(0);
    expect(report.pushJob).to.equal('completed');
    expect(report.websiteJob).to.equal('completed');
    expect(report.localPathStatus).to.equal(400);
    expect(report.warned, 'one warning naming the ignored sections').to.equal(true);
  });
});
