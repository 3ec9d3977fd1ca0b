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

  it('holds the precision target against a second kind of negatives, which easy positives do not move', () => {
    // Twenty negatives (one at 0.5) and two positives (0.2 and 0.6). At 0.5 precision at 1:1 is
    // 0.5 / (0.5 + 0.05) = 0.91, below 0.95: the rule flags from 0.6.
    const negatives = [...Array.from({ length: 15 }, () => 0.1), 0.25, 0.25, 0.25, 0.25, 0.5];
    const probabilities = [...negatives, 0.2, 0.6];
    const labels = [...negatives.map(() => 0), 1, 1];
    expect(chooseCutoff(probabilities, labels, 0.5, 0.95)).to.equal(0.6);
    // 38 near-certain positives raise recall at 0.5 to 39/40: precision alone now allows 0.5.
    const easy = Array.from({ length: 38 }, () => 0.99);
    const grown = [...probabilities, ...easy];
    const grownLabels = [...labels, ...easy.map(() => 1)];
    expect(chooseCutoff(grown, grownLabels, 0.5, 0.95)).to.equal(0.5);
    // Later negatives of which a tenth score 0.5 (0.975 / (0.975 + 0.1) = 0.91): 0.6 again.
    const later = [...Array.from({ length: 9 }, () => 0.3), 0.5];
    expect(chooseCutoff(grown, grownLabels, 0.5, 0.95, { otherNegatives: later })).to.equal(0.6);
    // Later negatives that stay low leave the cut-off where the labelled ones put it.
    expect(chooseCutoff(grown, grownLabels, 0.5, 0.95, { otherNegatives: [0.1, 0.2, 0.3] })).to.equal(0.5);
  });
});
