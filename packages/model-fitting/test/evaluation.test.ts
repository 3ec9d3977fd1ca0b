import { expect } from 'chai';
import { auc, chooseCutoff, figures } from '../src/index.js';

describe('model fitting: the figures of a scored set', () => {
  it('computes the AUC by ranks, ties at their mean rank', () => {
    expect(auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).to.equal(0.75);
    expect(auc([1, 2, 3, 4], [0, 0, 1, 1])).to.equal(1);
    expect(auc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).to.equal(0.5);
    expect(auc([1, 2], [1, 1])).to.be.NaN;
  });

  it('gives precision and recall on the set and at another prevalence', () => {
    const f = figures([true, true, false, true, false, false], [1, 1, 1, 0, 0, 0], 0.5);
    expect(f).to.include({ positives: 3, negatives: 3 });
    expect(f.precision).to.be.closeTo(2 / 3, 1e-12);
    expect(f.recall).to.be.closeTo(2 / 3, 1e-12);
    expect(f.false_positive_rate).to.be.closeTo(1 / 3, 1e-12);
    expect(f.precision_at_prevalence).to.be.closeTo(2 / 3, 1e-12);
    // Rarer positives: the same rates give a lower precision.
    expect(
      figures([true, true, false, true, false, false], [1, 1, 1, 0, 0, 0], 0.1).precision_at_prevalence,
    ).to.be.closeTo(2 / 30 / (2 / 30 + 0.3), 1e-12);
  });

  it('chooses the lowest cut-off that reaches the precision target, and 0.99 when none does', () => {
    const probabilities = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9];
    const labels = [0, 0, 1, 0, 1, 1];
    expect(chooseCutoff(probabilities, labels, 0.5, 0.9)).to.equal(0.7);
    expect(chooseCutoff(probabilities, labels, 0.5, 0.5)).to.equal(0.1);
    expect(chooseCutoff([0.2, 0.8], [1, 0], 0.5, 0.9)).to.equal(0.99);
  });
});
