import { expect } from 'chai';
import { fitHashedLogistic, hashedScore, type HashedExample } from '../src/index.js';
import { seeded } from './fixtures.js';

/** Examples of three slots each: slot 1 marks the positives, slot 2 the negatives, the rest is noise. */
function examples(count: number, seed: number): HashedExample[] {
  const { uniform } = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const label = (i % 4 === 0 ? 1 : 0) as 0 | 1;
    // The marker is right 90% of the time: the classes overlap.
    const marker = uniform() < 0.9 ? (label ? 1 : 2) : label ? 2 : 1;
    const noise = 10 + Math.floor(uniform() * 50);
    return { label, vector: { index: Int32Array.of(marker, noise), value: Float32Array.of(0.7, 0.7) } };
  });
}

describe('model fitting: a hashed logistic regression by AdaGrad', () => {
  it('weighs the slots that tell the classes apart, leaves untouched slots at 0 and ranks held-out examples', () => {
    const fit = fitHashedLogistic(examples(4000, 3), { bits: 8 });
    expect(fit.weights.length).to.equal(256);
    expect(fit.weights[1]!).to.be.above(1);
    expect(fit.weights[2]!).to.be.below(-1);
    const noise = Array.from(fit.weights.slice(10, 60), Math.abs);
    // Noise slots drift (each is seen about 80 times), but far less than the markers.
    expect(noise.reduce((sum, w) => sum + w, 0) / noise.length).to.be.below(fit.weights[1]! / 4);
    expect(fit.weights[200]).to.equal(0);
    const heldOut = examples(400, 4);
    const correct = heldOut.filter((e) => (hashedScore(fit, e.vector) > 0 ? 1 : 0) === e.label).length;
    // The marker is right 90% of the time and the classes are weighted equally: about 90% correct.
    expect(correct / heldOut.length).to.be.within(0.85, 0.95);
  });

  it('gives the same fit for the same input (a seeded order) and another for another seed', () => {
    const set = examples(1000, 5);
    const a = fitHashedLogistic(set, { bits: 8 });
    const b = fitHashedLogistic(set, { bits: 8 });
    expect(Array.from(a.weights)).to.deep.equal(Array.from(b.weights));
    const c = fitHashedLogistic(set, { bits: 8, seed: 99 });
    expect(Array.from(c.weights)).to.not.deep.equal(Array.from(a.weights));
  });

  it('fits nothing from one class alone', () => {
    const positives = examples(400, 6).filter((e) => e.label === 1);
    const fit = fitHashedLogistic(positives, { bits: 8 });
    expect(fit.bias).to.equal(0);
    expect(fit.weights.every((w) => w === 0)).to.equal(true);
  });
});
