import { expect } from 'chai';
import { TurnBatch } from '../src/backends/redis/turn-batch.js';

describe('TurnBatch (one command for the calls of one event-loop turn)', () => {
  it('sends the calls made within one turn together, each getting its own result', async () => {
    const flushed: number[][] = [];
    const batch = new TurnBatch<number, string>(async (items) => {
      flushed.push(items);
      return items.map((n) => `r${n}`);
    });
    const first = await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    expect(first).to.deep.equal(['r1', 'r2', 'r3']);
    // Calls resumed by the same reply (promise continuations) still share a batch.
    const resumed = await Promise.all(
      [4, 5].map(async (n) => {
        await Promise.resolve();
        return batch.add(n);
      }),
    );
    expect(resumed).to.deep.equal(['r4', 'r5']);
    const later = await batch.add(6);
    expect(later).to.equal('r6');
    expect(flushed).to.deep.equal([[1, 2, 3], [4, 5], [6]]);
  });

  it('rejects every call of a batch whose flush fails, and goes on with the next batch', async () => {
    let failing = true;
    const batch = new TurnBatch<number, number>(async (items) => {
      if (failing) throw new Error('Redis is away');
      return items;
    });
    const outcomes = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    expect(outcomes.map((o) => (o as PromiseRejectedResult).reason.message)).to.deep.equal([
      'Redis is away',
      'Redis is away',
    ]);
    failing = false;
    expect(await Promise.all([batch.add(3), batch.add(4)])).to.deep.equal([3, 4]);
  });

  it('rejects every call of a batch whose flush answers fewer results than it was given', async () => {
    const batch = new TurnBatch<number, number>(async (items) => items.slice(1));
    const outcomes = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
  });

  it('sends a batch as soon as it holds maxItems, and gathers the rest of the turn in the next', async () => {
    const flushed: number[][] = [];
    const batch = new TurnBatch<number, number>(async (items) => {
      flushed.push(items);
      return items;
    }, 3);
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => batch.add(n)));
    expect(results).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(flushed).to.deep.equal([[1, 2, 3], [4, 5, 6], [7]]);
  });
});
