import { expect } from 'chai';
import { balancedWeights, fitLogistic, fitPlatt, sigmoid, solveLinear, standardizer } from '../src/index.js';
import { seeded } from './fixtures.js';

const score = (fit: { weights: readonly number[]; bias: number }, x: readonly number[]): number =>
  x.reduce((s, v, j) => s + v * fit.weights[j]!, fit.bias);

describe('model fitting: logistic regression by Newton\u2019s method', () => {
  it('keeps the weights finite on a separable set, where the unpenalised fit would grow without bound, and classifies it perfectly', () => {
    const { normal } = seeded(7);
    // Two clusters apart along the first feature: a line separates them with room to spare.
    const rows = Array.from({ length: 400 }, (_, i) => [(i % 2 ? 3 : -3) + normal() * 0.5, normal(), normal()]);
    const labels = rows.map((_, i) => i % 2);
    const { mean, scale } = standardizer(rows);
    const z = rows.map((x) => x.map((v, j) => (v - mean[j]!) / scale[j]!));
    const fit = fitLogistic(z, labels, balancedWeights(labels), 1);
    for (const w of [...fit.weights, fit.bias]) expect(Number.isFinite(w), String(w)).to.equal(true);
    expect(Math.max(...fit.weights.map(Math.abs))).to.be.below(20);
    expect(z.every((x, i) => (sigmoid(score(fit, x)) >= 0.5 ? 1 : 0) === labels[i])).to.equal(true);
    // The separating feature carries the fit; the noise features do not.
    expect(Math.abs(fit.weights[0]!)).to.be.above(5 * Math.max(Math.abs(fit.weights[1]!), Math.abs(fit.weights[2]!)));
    // The penalty is what keeps it finite: a smaller one lets the weight grow.
    const looser = fitLogistic(z, labels, balancedWeights(labels), 0.01);
    expect(looser.weights[0]!).to.be.above(fit.weights[0]!);
  });

  it('recovers known coefficients from a noisy set drawn from them', () => {
    const { normal, uniform } = seeded(2026);
    const truth = { weights: [1.5, -2, 0.5], bias: -0.5 };
    const rows = Array.from({ length: 20_000 }, () => [normal(), normal(), normal()]);
    // Labels drawn from the model itself: the classes overlap everywhere.
    const labels = rows.map((x) => (uniform() < sigmoid(score(truth, x)) ? 1 : 0));
    const fit = fitLogistic(
      rows,
      labels,
      labels.map(() => 1),
      1e-6,
    );
    fit.weights.forEach((w, j) => expect(w, `weight ${j}`).to.be.closeTo(truth.weights[j]!, 0.1));
    expect(fit.bias).to.be.closeTo(truth.bias, 0.1);
  });

  it('weights each class to the same total', () => {
    const labels = [1, 0, 0, 0];
    const weights = balancedWeights(labels);
    expect(weights).to.deep.equal([2, 2 / 3, 2 / 3, 2 / 3]);
    expect(weights[0]!).to.be.closeTo(
      weights.slice(1).reduce((s, w) => s + w, 0),
      1e-12,
    );
  });

  it('standardizes each feature to mean 0 and spread 1, and leaves a constant one at scale 1', () => {
    const { mean, scale } = standardizer([
      [1, 5],
      [3, 5],
      [5, 5],
    ]);
    expect(mean).to.deep.equal([3, 5]);
    expect(scale[0]).to.be.closeTo(Math.sqrt(8 / 3), 1e-12);
    expect(scale[1]).to.equal(1);
  });

  it('solves a linear system by elimination with pivoting (a zero on the diagonal included), leaving its arguments alone', () => {
    const a = [
      [0, 2, 1],
      [1, 1, 1],
      [2, 1, 0],
    ];
    const b = [5, 4, 4];
    const x = solveLinear(a, b);
    [1, 2, 1].forEach((v, i) => expect(x[i]).to.be.closeTo(v, 1e-12));
    expect(a).to.deep.equal([
      [0, 2, 1],
      [1, 1, 1],
      [2, 1, 0],
    ]);
    expect(b).to.deep.equal([5, 4, 4]);
  });

  it('calibrates raw scores by Platt scaling, recovering the slope and intercept they were drawn with', () => {
    const { normal, uniform } = seeded(11);
    const scores = Array.from({ length: 20_000 }, () => normal() * 2);
    const labels = scores.map((z) => (uniform() < sigmoid(0.8 * z - 1) ? 1 : 0));
    // At the set's own share of positives the weights are all 1: the plain fit.
    const prior = labels.filter((l) => l === 1).length / labels.length;
    const platt = fitPlatt(scores, labels, prior);
    expect(platt.slope).to.be.closeTo(0.8, 0.05);
    expect(platt.intercept).to.be.closeTo(-1, 0.05);
    expect(platt.prior).to.equal(prior);
    // A lower prior moves the intercept down, not the slope.
    const rarer = fitPlatt(scores, labels, prior / 4);
    expect(rarer.intercept).to.be.below(platt.intercept - 1);
    expect(rarer.slope).to.be.closeTo(platt.slope, 0.1);
  });

  // The numbers bench/corpus/logistic.mjs (the script this package replaced) gave on this set: a
  // refit from the same data writes the same model files.
  it('fits exactly as the corpus scripts did before it was a package', () => {
    const rows = [
      [0.5, 1.2, -0.3],
      [1.5, -0.7, 0.8],
      [-1.1, 0.4, 1.9],
      [2.2, 2.1, -1.4],
      [-0.6, -1.8, 0.2],
      [0.9, 0.3, -0.9],
      [-2.0, 1.1, 0.6],
      [1.3, -1.2, -0.2],
      [0.1, 0.9, 1.1],
      [-0.4, -0.5, -1.6],
      [1.8, 0.6, 0.4],
      [-1.5, -0.9, -0.7],
    ];
    const labels = [1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 1];
    const st = standardizer(rows);
    const near = (actual: readonly number[], expected: readonly number[]): void =>
      expected.forEach((v, i) => expect(actual[i]).to.be.closeTo(v, 1e-9));
    near(st.mean, [0.22499999999999998, 0.125, -0.008333333333333304]);
    near(st.scale, [1.3058362582396514, 1.1000946928939042, 0.9987144514602537]);
    const z = rows.map((x) => x.map((v, j) => (v - st.mean[j]!) / st.scale[j]!));
    const fit = fitLogistic(
      z,
      labels,
      labels.map(() => 1),
      1,
    );
    near([...fit.weights, fit.bias], [0.4136384323806906, 0.9008742653001178, -0.46818487212132, 0.06315159718750599]);
    const platt = fitPlatt(
      rows.map((r) => r[0]! + r[1]!),
      labels,
      0.05,
    );
    near([platt.slope, platt.intercept], [1.6227537955191669, -3.290673386020003]);
  });
});
