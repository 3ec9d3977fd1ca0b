import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { runInLoopbackNamespace } from '@cadence-detect/test-support';

interface CaseOutcome {
  url: string;
  outcome: string;
  reached: string[];
}

const PROBE = fileURLToPath(new URL('./hostile-urls.probe.ts', import.meta.url));

/** Runs the probe in a loopback-only namespace; fails (never falls back) where none can be made. */
async function probe<T>(...args: string[]): Promise<T> {
  const run = await runInLoopbackNamespace([process.execPath, '--import', 'tsx', PROBE, ...args], {
    timeoutMs: 240_000,
  });
  const last = run.stdout.trim().split('\n').pop() ?? '';
  if (run.code !== 0 || (!last.startsWith('{') && !last.startsWith('['))) {
    throw new Error(`the probe failed (exit ${run.code}): ${run.stderr.slice(-2000)}`);
  }
  return JSON.parse(last) as T;
}

describe('hostile repository URLs (docs/git-source.md and docs/deploy.md), inside a loopback-only network namespace', function () {
  this.timeout(300_000);

  describe('the table of hostile spellings under the default policy', () => {
    let outcomes: CaseOutcome[] = [];
    before(async () => {
      outcomes = await probe<CaseOutcome[]>('table');
    });

    it('reaches no loopback listener with any hostile spelling', () => {
      const hostile = outcomes.filter((o) => !o.url.startsWith('control '));
      expect(hostile.length).to.be.greaterThan(30);
      const leaks = hostile.filter((o) => o.reached.length > 0);
      expect(leaks, JSON.stringify(leaks, null, 1)).to.deep.equal([]);
    });

    it('refuses the three reported spellings at parse time, not by luck of the network', () => {
      for (const outcome of outcomes.slice(0, 3)) expect(outcome.outcome, outcome.url).to.equal('refused');
    });

    it('stops every accepted loopback spelling at the guard', () => {
      for (const outcome of outcomes.filter((o) => !o.url.startsWith('control ') && o.outcome !== 'refused')) {
        expect(outcome.outcome, outcome.url).to.be.oneOf(['ERR_PRIVATE_ADDRESS', 'ERR_DNS_LOOKUP_FAILED']);
      }
    });

    it('reaches the listeners when a policy allows them (the recorders do see connections)', () => {
      const controls = outcomes.filter((o) => o.url.startsWith('control '));
      expect(controls).to.have.length(3);
      for (const control of controls) expect(control.reached, control.url).to.have.length.greaterThan(0);
      expect(controls[0]!.outcome).to.equal('cloned');
      expect(controls[1]!.outcome).to.equal('cloned');
    });
  });

  it('fuzzed spellings: an accepted one reaches only the address the guard checked', async () => {
    const summary = await probe<{
      seed: number;
      runs: number;
      accepted: number;
      connected: number;
      failure: string | null;
    }>('fuzz', '400');
    expect(summary.failure, `seed ${summary.seed}`).to.equal(null);
    expect(summary.runs).to.equal(400);
    expect(summary.accepted, 'the generator should produce accepted spellings too').to.be.greaterThan(5);
    expect(summary.connected, 'some accepted spellings should connect, or the oracle never ran').to.be.greaterThan(0);
  });

  it('the real server answers the reported spellings (analyze, stream, GitHub and GitLab pushes) without reaching loopback', async () => {
    const outcomes = await probe<CaseOutcome[]>('server');
    const leaks = outcomes.filter((o) => o.reached.length > 0);
    expect(leaks, JSON.stringify(leaks, null, 1)).to.deep.equal([]);
    for (const outcome of outcomes.filter((o) => !o.url.startsWith('health'))) {
      expect(outcome.outcome, outcome.url).to.match(/^400 invalid_request$|^failed ERR_PRIVATE_ADDRESS$/);
    }
    expect(outcomes.at(-1)).to.include({ outcome: 'ok' });
  });
});
