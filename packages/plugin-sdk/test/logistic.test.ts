import { expect } from 'chai';
import { logisticProbability, logisticScore, sigmoid, type LogisticModel } from '../src/index.js';

const MODEL: LogisticModel = {
  mean: [1, 0, 10],
  scale: [2, 1, 5],
  weights: [2, -1, 0.5],
  bias: 0.5,
  calibration: { slope: 1, intercept: 0 },
};

describe('logistic-regression inference (scoring helpers, API 1.6)', () => {
  it('standardizes each feature, weighs it, adds the bias and takes the logistic of the calibrated sum', () => {
    // z = 0.5 + 2·(3-1)/2 - 1·(1-0)/1 + 0.5·(20-10)/5 = 0.5 + 2 - 1 + 1 = 2.5
    const { probability, contributions } = logisticScore(MODEL, [3, 1, 20]);
    expect([...contributions]).to.deep.equal([2, -1, 1]);
    expect(probability).to.equal(1 / (1 + Math.exp(-2.5)));
    expect(logisticProbability(MODEL, [3, 1, 20])).to.equal(probability);
  });

  it('applies the Platt calibration to the linear score', () => {
    const calibrated = { ...MODEL, calibration: { slope: 2, intercept: -1 } };
    expect(logisticProbability(calibrated, [3, 1, 20])).to.equal(sigmoid(2 * 2.5 - 1));
    expect(logisticProbability(calibrated, Float64Array.from([1, 0, 10]))).to.equal(sigmoid(2 * 0.5 - 1));
  });

  it('caps each standardized feature at zLimit deviations either way, when asked', () => {
    const far = [1 + 2 * 50, 0 - 1 * 50, 10];
    const limited = logisticScore(MODEL, far, { zLimit: 4 });
    expect([...limited.contributions]).to.deep.equal([8, 4, 0]);
    expect(limited.probability).to.equal(sigmoid(0.5 + 12));
    expect(logisticProbability(MODEL, far, { zLimit: 4 })).to.equal(limited.probability);
    expect(logisticScore(MODEL, far).contributions[0]).to.equal(100);
  });

  it('sigmoid is the logistic function', () => {
    expect(sigmoid(0)).to.equal(0.5);
    expect(sigmoid(40)).to.be.closeTo(1, 1e-12);
    expect(sigmoid(-40)).to.be.closeTo(0, 1e-12);
    expect(sigmoid(1) + sigmoid(-1)).to.be.closeTo(1, 1e-15);
  });
});
