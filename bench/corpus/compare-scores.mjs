// Two versions of the commit model compared at the same recall, from the out-of-fold scores
// `CORPUS_SCORES=<file> pnpm bench corpus` writes for each (a before and an after). Each fold picks
// its own cut-off, and a change moves those cut-offs by more than some changes move the model, so
// figures at each run's own cut-offs can differ by noise alone. Here both versions are read on one
// scale: every probability against one threshold, swept, giving precision at the held-out
// prevalence (1 assistant commit to 3.2 human ones) over every assistant commit, and recall on
// written commits. Printed: each version at its own cut-offs; each version's precision at the
// other's written recall; each version's written recall at precision 0.95.
// Usage: node bench/corpus/compare-scores.mjs <before.json> <after.json>
import { readFileSync } from 'node:fs';

const PREVALENCE = 1 / 4.2;
const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  console.error('usage: node bench/corpus/compare-scores.mjs <before.json> <after.json>');
  process.exit(2);
}

const precisionAt = (recall, falsePositiveRate) =>
  recall === 0 ? 0 : (recall * PREVALENCE) / (recall * PREVALENCE + falsePositiveRate * (1 - PREVALENCE));

/** Recall (every assistant commit), written recall, false-positive rate and precision of a flag rule. */
function figures(rows, flagged) {
  const assistant = rows.filter((r) => r.label === 'assistant');
  const written = assistant.filter((r) => r.origin === 'written');
  const human = rows.filter((r) => r.label === 'human');
  const share = (list) => list.filter(flagged).length / list.length;
  const recall = share(assistant);
  const falsePositiveRate = share(human);
  return { recall, written: share(written), falsePositiveRate, precision: precisionAt(recall, falsePositiveRate) };
}

/** The rule `p >= t` for every distinct t, from the highest down: figures along the curve. */
function curve(rows) {
  const thresholds = [...new Set(rows.map((r) => r.p))].sort((a, b) => b - a);
  const assistant = rows.filter((r) => r.label === 'assistant');
  const written = assistant.filter((r) => r.origin === 'written');
  const human = rows.filter((r) => r.label === 'human');
  const sorted = (list) => list.map((r) => r.p).sort((a, b) => b - a);
  const [a, w, h] = [sorted(assistant), sorted(written), sorted(human)];
  const atLeast = (list, t) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] >= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return thresholds.map((t) => {
    const recall = atLeast(a, t) / a.length;
    const falsePositiveRate = atLeast(h, t) / h.length;
    return { t, recall, written: atLeast(w, t) / w.length, precision: precisionAt(recall, falsePositiveRate) };
  });
}

const fmt = (v) => v.toFixed(3);
const versions = [
  ['before', JSON.parse(readFileSync(beforeFile, 'utf8'))],
  ['after', JSON.parse(readFileSync(afterFile, 'utf8'))],
];
const own = new Map();
for (const [name, rows] of versions) {
  const f = figures(rows, (r) => r.p >= r.flagAt);
  own.set(name, f);
  console.log(
    `${name}, at each fold's own cut-off: precision ${fmt(f.precision)}, written recall ${fmt(f.written)} (every assistant commit ${fmt(f.recall)}), false-positive rate ${fmt(f.falsePositiveRate)}`,
  );
}
const curves = new Map(versions.map(([name, rows]) => [name, curve(rows)]));
for (const [target] of versions) {
  const recall = own.get(target).written;
  const line = versions.map(([name]) => {
    const at = curves.get(name).find((p) => p.written >= recall);
    return `${name} ${fmt(at.precision)} (threshold ${fmt(at.t)})`;
  });
  console.log(`one threshold for every fold, at ${target}'s written recall ${fmt(recall)}: precision ${line.join(', ')}`);
}
for (const [name] of versions) {
  const best = curves
    .get(name)
    .filter((p) => p.precision >= 0.95)
    .reduce((a, b) => (b.written > a.written ? b : a), { written: 0, t: 1 });
  console.log(`${name}, one threshold for every fold: written recall at precision 0.95 or more ${fmt(best.written)} (threshold ${fmt(best.t)})`);
}
