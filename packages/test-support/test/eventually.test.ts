import { expect } from 'chai';
import { eventually } from '../src/eventually.js';

describe('eventually (the one way tests wait)', () => {
  it('returns the first value that is neither undefined nor false, trying again until then', async () => {
    let tries = 0;
    const value = await eventually(() => (++tries < 3 ? (tries === 1 ? undefined : false) : 'ready'), 'readiness', {
      everyMs: 1,
    });
    expect([value, tries]).to.deep.equal(['ready', 3]);
    expect(await eventually(async () => 0, 'a zero')).to.equal(0);
  });

  it('fails after its time naming what it waited for, with the latest state when given a function', async () => {
    let seen = 0;
    const error = await eventually(
      () => (seen++, false),
      () => `a condition (tried ${seen} times)`,
      {
        timeoutMs: 30,
        everyMs: 5,
      },
    ).catch((e: unknown) => e as Error);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/^still waiting for a condition \(tried \d+ times\) after 30 ms$/);
    expect(seen).to.be.above(1);
  });

  it('passes on what the probe throws, at once', async () => {
    const error = await eventually(() => {
      throw new Error('the server exited');
    }, 'anything').catch((e: unknown) => e as Error);
    expect((error as Error).message).to.equal('the server exited');
  });
});
