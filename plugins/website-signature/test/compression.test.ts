import { expect } from 'chai';
import { compressionGain } from '../src/compression.js';

// Seeds and samples written for this test. The "seed" shares the samples' vocabulary and phrasing in
// one case and nothing in the other: the gain must follow what the seed holds.
const SEED_ABOUT_CACHES = Buffer.from(
  'A cache keeps the answers to recent questions close at hand. When the same question comes back, the cache answers it without asking the slower store behind it. ' +
    'Every cache needs a rule for what to forget when it fills up, and the usual rule forgets whatever was used least recently. ' +
    'A cache that forgets too eagerly answers little; a cache that never forgets grows until the machine runs out of memory.',
);
const SEED_ABOUT_GARDENS = Buffer.from(
  'Tomatoes want six hours of sun and a deep watering twice a week. Pinch out the side shoots, tie the main stem to a cane, and feed with potash once the first trusses set. ' +
    'Marigolds between the rows keep whitefly away, or so the allotment holders say.',
);
const SAMPLE =
  'The cache keeps recent answers close at hand, so the same question is answered without asking the slower store. ' +
  'When it fills up, the cache forgets whatever was used least recently.';

describe('compression gain (ZipPy-style similarity to a seed)', () => {
  it('is larger after a seed that shares the sample’s wording than after one that does not', () => {
    const near = compressionGain(SAMPLE, [SEED_ABOUT_CACHES]);
    const far = compressionGain(SAMPLE, [SEED_ABOUT_GARDENS]);
    expect(near).to.be.greaterThan(0.2);
    expect(near).to.be.greaterThan(far + 0.1);
  });

  it('averages over the seed’s windows', () => {
    const both = compressionGain(SAMPLE, [SEED_ABOUT_CACHES, SEED_ABOUT_GARDENS]);
    expect(both).to.be.closeTo(
      (compressionGain(SAMPLE, [SEED_ABOUT_CACHES]) + compressionGain(SAMPLE, [SEED_ABOUT_GARDENS])) / 2,
      1e-9,
    );
  });

  it('is 0 without a seed or without text', () => {
    expect(compressionGain(SAMPLE, null)).to.equal(0);
    expect(compressionGain(SAMPLE, [])).to.equal(0);
    expect(compressionGain('   ', [SEED_ABOUT_CACHES])).to.equal(0);
  });

  it('reads at most the first 32 KiB of a page', () => {
    const long = SAMPLE.repeat(2000);
    expect(compressionGain(long, [SEED_ABOUT_CACHES])).to.equal(
      compressionGain(long.slice(0, 32 * 1024), [SEED_ABOUT_CACHES]),
    );
  });
});
