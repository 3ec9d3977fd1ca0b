// `pnpm bench pages`: builds the page corpus (bench/pages: human pages from local mirrors, the
// project's machine-written pages), validates the page model leave one topic out, and prints AUC
// overall and per brief, the false-positive rate at 0.4 and 0.7, the same for today's page score,
// and the check that markup counts alone separate the sides no better than chance.
// Needs the mirrors: never run in CI.
import { existsSync } from 'node:fs';
import websiteSignature from '@cadence/plugin-website-signature';
import { runPlugin } from '@cadence/plugin-testkit';
import { buildPages, loadHumanSources, mirrorOf } from './pages/build.mjs';
import { auc, fitLogistic, sigmoid, standardizer } from './corpus/logistic.mjs';

const present = loadHumanSources().filter((p) => existsSync(mirrorOf(p.repo)));
if (present.length < 20) {
  console.log(`pages: ${present.length} human pages have their mirror here; nothing to measure (this benchmark needs the mirrors).`);
  process.exit(0);
}
const { rows } = await buildPages();
const machine = rows.filter((r) => r.label === 'machine');
console.log(`${rows.length} pages: ${rows.length - machine.length} human, ${machine.length} machine (${[...new Set(machine.map((r) => r.brief))].map((b) => `${b} ${machine.filter((r) => r.brief === b).length}`).join(', ')})`);

/** Leave one topic out: fit on the other topics, score the held-out one. */
function leaveOneTopicOut(vectorOf, lambda = 10) {
  const scores = new Map();
  for (const topic of new Set(rows.map((r) => r.topic))) {
    const train = rows.filter((r) => r.topic !== topic);
    const test = rows.filter((r) => r.topic === topic);
    if (!train.some((r) => r.label === 'machine') || !train.some((r) => r.label === 'human')) continue;
    const xs = train.map(vectorOf);
    const { mean, scale } = standardizer(xs);
    const z = (x) => x.map((v, j) => (v - mean[j]) / scale[j]);
    const labels = train.map((r) => (r.label === 'machine' ? 1 : 0));
    const pos = labels.filter(Boolean).length;
    const weights = labels.map((l) => (l ? train.length / (2 * pos) : train.length / (2 * (train.length - pos))));
    const fit = fitLogistic(xs.map(z), labels, weights, lambda);
    for (const r of test) scores.set(r, sigmoid(fit.bias + z(vectorOf(r)).reduce((s, v, j) => s + v * fit.weights[j], 0)));
  }
  return scores;
}

function report(name, scores) {
  const list = [...scores.entries()];
  const labels = list.map(([r]) => (r.label === 'machine' ? 1 : 0));
  const humans = list.filter(([r]) => r.label === 'human');
  const fpr = (t) => (humans.filter(([, p]) => p >= t).length / Math.max(humans.length, 1)).toFixed(3);
  console.log(`${name}: AUC ${auc(list.map(([, p]) => p), labels).toFixed(3)}; human pages at >= 0.4: ${fpr(0.4)}, >= 0.7: ${fpr(0.7)}`);
  for (const brief of [...new Set(machine.map((r) => r.brief))]) {
    const subset = list.filter(([r]) => r.label === 'human' || r.brief === brief);
    const mean = subset.filter(([r]) => r.brief === brief).reduce((s, [, p]) => s + p, 0) / Math.max(1, subset.filter(([r]) => r.brief === brief).length);
    console.log(`  ${brief.padEnd(22)} AUC ${auc(subset.map(([, p]) => p), subset.map(([r]) => (r.label === 'machine' ? 1 : 0))).toFixed(3)}  mean score ${mean.toFixed(3)}`);
  }
}

report('markup counts alone (should be near 0.5)', leaveOneTopicOut((r) => r.markup));
report('page model (new signals, leave one topic out)', leaveOneTopicOut((r) => r.features));
const today = new Map();
for (const r of rows) {
  const run = await runPlugin(websiteSignature, { html: r.html }).catch(() => null);
  if (run) today.set(r, run.result.overall_score);
}
report('today\u2019s page score (website-signature, hand-set)', today);
