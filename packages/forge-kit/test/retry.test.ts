import { expect } from 'chai';
import { retryAfterMs, retrying } from '../src/index.js';
import { eventually } from '@cadence-detect/test-support';

class Refused extends Error {}

describe('retrying: the one retry policy', () => {
  it('asks again after a passing failure, with waits doubling from the initial delay', async () => {
    const at: number[] = [];
    const start = performance.now();
    const value = await retrying(
      async (n) => {
        at.push(performance.now() - start);
        if (n < 3) throw new Error('passing');
        return n;
      },
      { retries: 3, initialDelayMs: 40 },
    );
    expect(value).to.equal(3);
    expect(at).to.have.length(3);
    expect(at[1]! - at[0]!).to.be.at.least(35);
    expect(at[2]! - at[1]!).to.be.at.least(75);
  });

  it('stops at the retry budget and rejects with the last failure as thrown', async () => {
    let calls = 0;
    const error = await retrying(
      async () => {
        calls++;
        throw new Error(`failure ${calls}`);
      },
      { retries: 2, initialDelayMs: 1 },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(calls).to.equal(3);
    expect((error as Error).message).to.equal('failure 3');
  });

  it('does not retry what `retryable` refuses, and never a plain TypeError (a bug)', async () => {
    let calls = 0;
    const refused = await retrying(
      async () => {
        calls++;
        throw new Refused('no');
      },
      { retries: 5, initialDelayMs: 1, retryable: (e) => !(e instanceof Refused) },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).to.be.instanceOf(Refused);
    expect(calls).to.equal(1);
    calls = 0;
    await retrying(
      async () => {
        calls++;
        throw new TypeError('undefined is not a function');
      },
      { retries: 5, initialDelayMs: 1 },
    ).catch(() => undefined);
    expect(calls).to.equal(1);
  });

  it('waits what the server asked for in place of the back-off', async () => {
    const at: number[] = [];
    const start = performance.now();
    await retrying(
      async (n) => {
        at.push(performance.now() - start);
        if (n === 1) throw new Error('rate limited');
        return n;
      },
      { retries: 1, initialDelayMs: 1, retryable: () => ({ afterMs: 120 }) },
    );
    expect(at[1]! - at[0]!).to.be.at.least(110);
  });

  it('an abort ends the wait at once with the signal\u2019s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('job cancelled');
    let attempts = 0;
    const start = performance.now();
    const waiting = retrying(
      async () => {
        attempts++;
        throw new Error('passing');
      },
      { retries: 3, initialDelayMs: 10_000, signal: controller.signal },
    );
    // The first attempt failed: the 10 s wait has begun.
    await eventually(() => attempts === 1, 'the first attempt', { everyMs: 5 });
    controller.abort(reason);
    const error = await waiting.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.equal(reason);
    expect(performance.now() - start).to.be.below(5_000);
  });

  it('reads Retry-After in seconds and as an HTTP date', () => {
    expect(retryAfterMs('3')).to.equal(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).to.equal(6000);
    expect(retryAfterMs('soon')).to.equal(null);
    expect(retryAfterMs(null)).to.equal(null);
  });
});
