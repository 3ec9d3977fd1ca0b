// `pnpm bench pages`: builds the page corpus (bench/pages: human pages from local mirrors, the
// project's machine-written pages), validates the page model leave one topic out, and prints AUC
// overall and per brief, the false-positive rate at 0.4 and 0.7, the same for today's page score,
// and the check that markup counts alone separate the sides no better than chance.
// Needs the mirrors: never run in CI.
import { existsSync } from 'node:fs';
import websiteSignature from '@cadence/plugin-website-signature';
import { runPlugin } from '@cadence/plugin-testkit';
import { buildPages, loadHumanSources, machinePages, mirrorOf } from './pages/build.mjs';
import { writeFileSync } from 'node:fs';
import { auc, fitLogistic, fitPlatt, sigmoid, standardizer } from './corpus/logistic.mjs';

const LAMBDA = 10;

const present = loadHumanSources().filter((p) => existsSync(mirrorOf(p.repo)));
const written = machinePages().length;
if (present.length < 20 || written < 20) {
  console.log(`pages: ${present.length} human pages with their mirror here and ${written} machine pages in bench/pages/machine; nothing to measure (this benchmark needs the corpus and the mirrors).`);
  process.exit(0);
}
const { rows } = await buildPages();
const machine = rows.filter((r) => r.label === 'machine');
console.log(`${rows.length} pages: ${rows.length - machine.length} human, ${machine.length} machine (${[...new Set(machine.map((r) => r.brief))].map((b) => `${b} ${machine.filter((r) => r.brief === b).length}`).join(', ')})`);

function fitPage(train, vectorOf, lambda = LAMBDA) {
  const xs = train.map(vectorOf);
  const { mean, scale } = standardizer(xs);
  const z = (x) => x.map((v, j) => (v - mean[j]) / scale[j]);
  const labels = train.map((r) => (r.label === 'machine' ? 1 : 0));
  const pos = labels.filter(Boolean).length;
  const weights = labels.map((l) => (l ? train.length / (2 * pos) : train.length / (2 * (train.length - pos))));
  const fit = fitLogistic(xs.map(z), labels, weights, lambda);
  return { mean, scale, weights: fit.weights, bias: fit.bias, raw: (r) => fit.bias + z(vectorOf(r)).reduce((s, v, j) => s + v * fit.weights[j], 0) };
}

/** Raw (uncalibrated) leave-one-topic-out scores. */
function rawLeaveOneTopicOut(vectorOf, subset = rows) {
  const scores = new Map();
  for (const topic of new Set(subset.map((r) => r.topic))) {
    const train = subset.filter((r) => r.topic !== topic);
    if (!train.some((r) => r.label === 'machine') || !train.some((r) => r.label === 'human')) continue;
    const model = fitPage(train, vectorOf);
    for (const r of subset.filter((x) => x.topic === topic)) scores.set(r, model.raw(r));
  }
  return scores;
}

/** Leave one topic out: fit on the other topics, calibrate by their own inner leave-one-topic-out, score the held-out one. */
function leaveOneTopicOut(vectorOf, lambda = 10) {
  const scores = new Map();
  for (const topic of new Set(rows.map((r) => r.topic))) {
    const train = rows.filter((r) => r.topic !== topic);
    const test = rows.filter((r) => r.topic === topic);
    if (!train.some((r) => r.label === 'machine') || !train.some((r) => r.label === 'human')) continue;
    const model = fitPage(train, vectorOf, lambda);
    const platt = calibrationOf(rawLeaveOneTopicOut(vectorOf, train));
    for (const r of test) scores.set(r, sigmoid(platt.slope * model.raw(r) + platt.intercept));
  }
  return scores;
}

/** Platt scaling on out-of-fold raw scores, the corpus weighted to a balance of the two sides. */
function calibrationOf(raw) {
  const list = [...raw.entries()];
  return fitPlatt(list.map(([, z]) => z), list.map(([r]) => (r.label === 'machine' ? 1 : 0)), 0.5);
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
const validation = leaveOneTopicOut((r) => r.features);
report('page model (new signals, leave one topic out)', validation);
const today = new Map();
for (const r of rows) {
  const run = await runPlugin(websiteSignature, { html: r.html }).catch(() => null);
  if (run) today.set(r, run.result.overall_score);
}
report('today\u2019s page score (website-signature, hand-set)', today);

if (process.argv.includes('--write')) {
  const vectorOf = (r) => r.features;
  const model = fitPage(rows, vectorOf);
  const platt = calibrationOf(rawLeaveOneTopicOut(vectorOf));
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
  };
  const humans = rows.filter((r) => r.label === 'human');
  const list = [...validation.entries()];
  const labels = list.map(([r]) => (r.label === 'machine' ? 1 : 0));
  const round6 = (v) => Math.round(v * 1e6) / 1e6;
  const shipped = {
    version: 1,
    features: (await import('@cadence/plugin-website-signature')).PAGE_FEATURE_NAMES,
    mean: model.mean.map(round6),
    scale: model.scale.map(round6),
    weights: model.weights.map(round6),
    bias: round6(model.bias),
    calibration: { slope: round6(platt.slope), intercept: round6(platt.intercept) },
    human: Object.fromEntries([['median', 0.5], ['p10', 0.1], ['p90', 0.9]].map(([key, q]) => [key, humans[0].features.map((_, j) => round6(quantile(humans.map((r) => r.features[j]), q)))])),
    validation: {
      method: 'leave-one-topic-out',
      pages: rows.length,
      human: humans.length,
      machine: rows.length - humans.length,
      auc: round6(auc(list.map(([, p]) => p), labels)),
      human_at_or_above_0_4: list.filter(([r, p]) => r.label === 'human' && p >= 0.4).length,
      human_at_or_above_0_7: list.filter(([r, p]) => r.label === 'human' && p >= 0.7).length,
    },
  };
  const file = new URL('../plugins/website-signature/model/page-model.json', import.meta.url);
  writeFileSync(file, `${JSON.stringify(shipped, null, 1)}\n`);
  console.log(`wrote ${file.pathname}`);
}
