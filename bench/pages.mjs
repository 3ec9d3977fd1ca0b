// `pnpm bench pages`: builds the page corpus (bench/pages: human pages from local mirrors, the
// project's machine-written pages), validates the page model leave one topic out, and prints AUC
// overall and per brief, the false-positive rate at 0.4 and 0.7, the same for today's page score,
// and the check that markup counts alone separate the sides no better than chance.
// Needs the mirrors: never run in CI. `PAGES_QUICK=1` skips the shuffled-label check and the
// shipped plugin's in-sample check (for trying a change); `--write` refits the shipped model.
import { existsSync } from 'node:fs';
import websiteSignature, {
  FEATURE_Z_LIMIT,
  MIN_PROSE_WORDS,
  PAGE_FEATURE_NAMES,
  shippedPageModel,
} from '@cadence-detect/plugin-website-signature';

const websiteSignatureShipsModel = () => shippedPageModel() !== null;
import { runPlugin } from '@cadence-detect/plugin-testkit';
import { buildPages, loadHumanSources, machinePages, mirrorOf } from './pages/build.mjs';
import { writeFileSync } from 'node:fs';
import { auc, balancedWeights, fitLogistic, fitPlatt, sigmoid, standardizer } from '@cadence-detect/model-fitting';

const LAMBDA = 10;
/**
 * A short page's rates say less than a long one's: the model reads each rate drawn toward the
 * training pages' mean by words / (words + SHRINK_WORDS) (the plugin's `PageShrink`). Spreads,
 * lengths, diversity and compression are read as measured (drawing them too flagged more human
 * pages leaving a writer out). Chosen on a grid of 150, 400, 1,000 and 2,500 words (docs/website-analysis.md);
 * `PAGES_SHRINK_WORDS=0` validates without it.
 */
const SHRINK_WORDS = Number(process.env.PAGES_SHRINK_WORDS ?? 1000);
const READ_AS_MEASURED = new Set([
  'sentence_length_cv',
  'paragraph_length_cv',
  'mean_sentence_length',
  'lexical_diversity_mtld',
  'compression_gain',
]);
const SHRUNK_FEATURES = PAGE_FEATURE_NAMES.filter((name) => !READ_AS_MEASURED.has(name));

const present = loadHumanSources().filter((p) => existsSync(mirrorOf(p.repo)));
const written = machinePages().length;
if (present.length < 20 || written < 20) {
  console.log(
    `pages: ${present.length} human pages with their mirror here and ${written} machine pages in bench/pages/machine; nothing to measure (this benchmark needs the corpus and the mirrors).`,
  );
  process.exit(0);
}
const { rows } = await buildPages();
const machine = rows.filter((r) => r.label === 'machine');
console.log(
  `${rows.length} pages: ${rows.length - machine.length} human, ${machine.length} machine (${[...new Set(machine.map((r) => r.brief))].map((b) => `${b} ${machine.filter((r) => r.brief === b).length}`).join(', ')})`,
);

/** What the shipped strategy gives a page it does not score (too little prose). */
const UNSCORED_PROBABILITY = 0.05;
const scorable = (r) => r.prose >= MIN_PROSE_WORDS;

function fitPage(all, vectorOf, lambda = LAMBDA, gate = scorable) {
  // The model is fitted on the pages it will score: those with prose enough.
  const train = all.filter(gate);
  const rawXs = train.map(vectorOf);
  // The shrink's center: the training pages' mean as measured (vectorOf.shrunk: the indices drawn).
  const center = rawXs[0].map((_, j) => rawXs.reduce((s, x) => s + x[j], 0) / rawXs.length);
  const drawn = SHRINK_WORDS > 0 ? (vectorOf.shrunk ?? new Set()) : new Set();
  const shrunk = (r, x) => {
    if (drawn.size === 0) return x;
    const kept = r.words / (r.words + SHRINK_WORDS);
    return x.map((v, j) => (drawn.has(j) ? center[j] + (v - center[j]) * kept : v));
  };
  const xs = train.map((r, i) => shrunk(r, rawXs[i]));
  const { mean, scale } = standardizer(xs);
  const z = (x) => x.map((v, j) => Math.max(-FEATURE_Z_LIMIT, Math.min(FEATURE_Z_LIMIT, (v - mean[j]) / scale[j])));
  const labels = train.map((r) => (r.label === 'machine' ? 1 : 0));
  const fit = fitLogistic(xs.map(z), labels, balancedWeights(labels), lambda);
  return {
    center,
    mean,
    scale,
    weights: fit.weights,
    bias: fit.bias,
    z: (x, r) => z(r ? shrunk(r, x) : x),
    raw: (r) => fit.bias + z(shrunk(r, vectorOf(r))).reduce((s, v, j) => s + v * fit.weights[j], 0),
  };
}

/**
 * The groups a validation leaves out one at a time: a page's topic group, or its writer (a machine
 * page's `writer:`, a human page's repository: the people of one project write alike).
 */
const byTopic = (r) => r.topic;
const byWriter = (r) => r.writer;

/** Raw (uncalibrated) leave-one-group-out scores. */
function rawLeaveOneOut(vectorOf, subset = rows, gate = scorable, lambda = LAMBDA, groupOf = byTopic) {
  const scores = new Map();
  for (const group of new Set(subset.map(groupOf))) {
    const train = subset.filter((r) => groupOf(r) !== group);
    if (!train.some((r) => r.label === 'machine') || !train.some((r) => r.label === 'human')) continue;
    const model = fitPage(train, vectorOf, lambda, gate);
    for (const r of subset.filter((x) => groupOf(x) === group && gate(x))) scores.set(r, model.raw(r));
  }
  return scores;
}

/** The penalty, chosen inside the training pages by their own leave-one-group-out AUC (never by the held-out group). */
const LAMBDAS = [3, 10, 30];
function chooseLambda(vectorOf, train, gate, groupOf = byTopic) {
  let best = { lambda: LAMBDA, auc: -1 };
  for (const lambda of LAMBDAS) {
    const raw = [...rawLeaveOneOut(vectorOf, train, gate, lambda, groupOf).entries()];
    const score = auc(
      raw.map(([, z]) => z),
      raw.map(([r]) => (r.label === 'machine' ? 1 : 0)),
    );
    if (score > best.auc) best = { lambda, auc: score };
  }
  return best.lambda;
}

/**
 * Leave one group out (a topic by default): fit on the other groups, calibrate by their own inner
 * leave-one-group-out, score the held-out one.
 */
function leaveOneOut(vectorOf, lambda = null, gate = scorable, groupOf = byTopic) {
  const scores = new Map();
  for (const group of new Set(rows.map(groupOf))) {
    const train = rows.filter((r) => groupOf(r) !== group);
    const test = rows.filter((r) => groupOf(r) === group);
    if (!train.some((r) => r.label === 'machine') || !train.some((r) => r.label === 'human')) continue;
    const chosen = lambda ?? chooseLambda(vectorOf, train, gate, groupOf);
    const model = fitPage(train, vectorOf, chosen, gate);
    const platt = calibrationOf(rawLeaveOneOut(vectorOf, train, gate, chosen, groupOf));
    for (const r of test)
      scores.set(r, gate(r) ? sigmoid(platt.slope * model.raw(r) + platt.intercept) : UNSCORED_PROBABILITY);
  }
  return scores;
}

/** Platt scaling on out-of-fold raw scores, the corpus weighted to a balance of the two sides. */
function calibrationOf(raw) {
  const list = [...raw.entries()];
  return fitPlatt(
    list.map(([, z]) => z),
    list.map(([r]) => (r.label === 'machine' ? 1 : 0)),
    0.5,
  );
}

/**
 * How often the markup check reaches its AUC with the labels shuffled within each topic (the same
 * leave-one-topic-out fit, 40 seeded shuffles): the check passes when its AUC is an ordinary draw.
 */
function markupNull(observed) {
  const observedAuc = aucOf(observed);
  let state = 20261124;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const draws = [];
  const original = rows.map((r) => r.label);
  for (let i = 0; i < 40; i++) {
    for (const topic of new Set(rows.map((r) => r.topic))) {
      const members = rows.filter((r) => r.topic === topic);
      const labels = members.map((r) => r.label);
      for (let k = labels.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        [labels[k], labels[j]] = [labels[j], labels[k]];
      }
      members.forEach((r, k) => (r.label = labels[k]));
    }
    draws.push(aucOf(leaveOneOut((r) => r.markup, LAMBDA, everyPage)));
  }
  rows.forEach((r, k) => (r.label = original[k]));
  draws.sort((a, b) => a - b);
  const atLeast = draws.filter((d) => d >= observedAuc).length;
  return `shuffled labels give AUC ${draws[Math.floor(draws.length * 0.5)].toFixed(3)} (median), ${draws[Math.floor(draws.length * 0.95)].toFixed(3)} (95th percentile); ${atLeast} of ${draws.length} reach ${observedAuc.toFixed(3)}`;
}

function aucOf(scores) {
  const list = [...scores.entries()];
  return auc(
    list.map(([, p]) => p),
    labelsOf(list.map(([r]) => r)),
  );
}

/** Precision and recall of "machine-written" at the two bands' thresholds, on balanced-weight counts as measured. */
function precisionRecall(scores) {
  const list = [...scores.entries()];
  for (const t of [0.4, 0.7]) {
    const flagged = list.filter(([, p]) => p >= t);
    const truePositives = flagged.filter(([r]) => r.label === 'machine').length;
    const machineCount = list.filter(([r]) => r.label === 'machine').length;
    console.log(
      `  at ${t}: precision ${(truePositives / Math.max(flagged.length, 1)).toFixed(3)}, recall ${(truePositives / Math.max(machineCount, 1)).toFixed(3)} (${flagged.length} pages flagged)`,
    );
  }
}

function report(name, scores) {
  const list = [...scores.entries()];
  const labels = list.map(([r]) => (r.label === 'machine' ? 1 : 0));
  const humans = list.filter(([r]) => r.label === 'human');
  const fpr = (t) => (humans.filter(([, p]) => p >= t).length / Math.max(humans.length, 1)).toFixed(3);
  console.log(
    `${name}: AUC ${auc(
      list.map(([, p]) => p),
      labels,
    ).toFixed(3)}; human pages at >= 0.4: ${fpr(0.4)}, >= 0.7: ${fpr(0.7)}`,
  );
  for (const brief of [...new Set(machine.map((r) => r.brief))]) {
    const subset = list.filter(([r]) => r.label === 'human' || r.brief === brief);
    const mean =
      subset.filter(([r]) => r.brief === brief).reduce((s, [, p]) => s + p, 0) /
      Math.max(1, subset.filter(([r]) => r.brief === brief).length);
    console.log(
      `  ${brief.padEnd(22)} AUC ${auc(
        subset.map(([, p]) => p),
        subset.map(([r]) => (r.label === 'machine' ? 1 : 0)),
      ).toFixed(3)}  mean score ${mean.toFixed(3)}`,
    );
  }
}

/**
 * Issue 32's targets, leave one topic out: human pages at or above 0.4 at most 3%, and AUC at least
 * 0.95 for every brief (its machine pages against every human page). Prints the per-brief table and
 * the human side by kind of page, then whether each target is met.
 */
const TARGET_HUMAN_AT_0_4 = 0.03;
const TARGET_BRIEF_AUC = 0.95;
function targets(scores, validation = 'leave one topic out') {
  const list = [...scores.entries()];
  const humans = list.filter(([r]) => r.label === 'human');
  const flagged = humans.filter(([, p]) => p >= 0.4);
  const rate = flagged.length / Math.max(humans.length, 1);
  console.log(`per brief, ${validation} (each brief's machine pages against all human pages):`);
  console.log(
    `  ${'brief'.padEnd(22)} ${'pages'.padStart(5)}  ${'AUC'.padStart(5)}  ${'at >= 0.4'.padStart(9)}  ${'median'.padStart(6)}`,
  );
  const aucs = [];
  for (const brief of [...new Set(machine.map((r) => r.brief))].sort()) {
    const mine = list.filter(([r]) => r.brief === brief && r.label === 'machine');
    const subset = [...humans, ...mine];
    const value = auc(
      subset.map(([, p]) => p),
      subset.map(([r]) => (r.label === 'machine' ? 1 : 0)),
    );
    aucs.push([brief, value]);
    const sorted = mine.map(([, p]) => p).sort((a, b) => a - b);
    console.log(
      `  ${brief.padEnd(22)} ${String(mine.length).padStart(5)}  ${value.toFixed(3)}  ${`${mine.filter(([, p]) => p >= 0.4).length} of ${mine.length}`.padStart(9)}  ${sorted[Math.floor(sorted.length / 2)].toFixed(3).padStart(6)}`,
    );
  }
  console.log('human pages by kind:');
  for (const kind of [...new Set(humans.map(([r]) => r.brief))].sort()) {
    const mine = humans.filter(([r]) => r.brief === kind);
    console.log(
      `  ${kind.padEnd(22)} ${String(mine.length).padStart(5)}  at >= 0.4: ${mine.filter(([, p]) => p >= 0.4).length}, unscored (too little prose): ${mine.filter(([r]) => !scorable(r)).length}`,
    );
  }
  // Where the first target would sit on this ranking: the lowest score that flags at most 3% of
  // the human pages, and the machine pages it still flags (information, not a setting).
  const allowed = Math.floor(humans.length * TARGET_HUMAN_AT_0_4);
  const humanScores = humans.map(([, p]) => p).sort((a, b) => b - a);
  const cut = humanScores[allowed] + 1e-9;
  const machines = list.filter(([r]) => r.label === 'machine');
  console.log(
    `  at most ${allowed} of ${humans.length} human pages flagged needs a score above ${humanScores[allowed].toFixed(3)}: it flags ${machines.filter(([, p]) => p >= cut).length} of ${machines.length} machine pages`,
  );
  const worst = aucs.reduce((a, b) => (b[1] < a[1] ? b : a));
  const mark = (ok) => (ok ? 'met' : 'NOT met');
  console.log(
    `target: human pages at >= 0.4 at most ${TARGET_HUMAN_AT_0_4 * 100}%: ${(rate * 100).toFixed(1)}% (${flagged.length} of ${humans.length}): ${mark(rate <= TARGET_HUMAN_AT_0_4)}`,
  );
  console.log(
    `target: AUC at least ${TARGET_BRIEF_AUC} for every brief: lowest ${worst[1].toFixed(3)} (${worst[0]}): ${mark(worst[1] >= TARGET_BRIEF_AUC)}`,
  );
}

const MARKUP_COUNTS = ['headings', 'list items', 'links', 'code blocks', 'table cells'];
const labelsOf = (list) => list.map((r) => (r.label === 'machine' ? 1 : 0));
console.log(
  `markup counts one by one (AUC, 0.5 is chance): ${MARKUP_COUNTS.map(
    (name, j) =>
      `${name} ${auc(
        rows.map((r) => r.markup[j]),
        labelsOf(rows),
      ).toFixed(3)}`,
  ).join(', ')}`,
);
const everyPage = () => true;
const markupScores = leaveOneOut((r) => r.markup, LAMBDA, everyPage);
report('markup counts together (should be near 0.5)', markupScores);
if (process.env.PAGES_QUICK !== '1') console.log(`  against chance: ${markupNull(markupScores)}`);
// The lexicon features (stock phrases, assistant vocabulary, transition openers) are evidence of
// machine writing by construction, and they stay floors and explanations outside the model: modern
// model prose, the corpus's machine side, has almost none, so a fitted weight on them came out
// negative, and a page full of stock phrases scored 1e-15. They enter the model as constants (weight 0).
const MODEL_EXCLUDED = new Set(['stock_phrases_per_k', 'ai_vocabulary_per_k', 'transition_openers']);
const modelVector = Object.assign(
  (r) => r.features.map((v, j) => (MODEL_EXCLUDED.has(PAGE_FEATURE_NAMES[j]) ? 0 : v)),
  { shrunk: new Set(SHRUNK_FEATURES.map((name) => PAGE_FEATURE_NAMES.indexOf(name))) },
);
const validation = leaveOneOut(modelVector);
report('page model (new signals, leave one topic out)', validation);
precisionRecall(validation);
targets(validation);
// Leave one writer out: a machine writer's pages, or a human project's, are scored by a model whose
// penalty, weights and calibration never saw that writer. The documentation brief has several
// writers; one writer's habits cannot carry its pages here.
const byWriterValidation = leaveOneOut(modelVector, null, scorable, byWriter);
report('page model (leave one writer out)', byWriterValidation);
console.log('per machine writer, leave one writer out (the writer\u2019s pages against all human pages):');
const humanScored = [...byWriterValidation.entries()].filter(([r]) => r.label === 'human');
for (const writer of [...new Set(machine.map(byWriter))].sort()) {
  const mine = [...byWriterValidation.entries()].filter(([r]) => r.label === 'machine' && r.writer === writer);
  const subset = [...humanScored, ...mine];
  console.log(
    `  ${writer.padEnd(32)} ${mine[0][0].brief.padEnd(20)} ${String(mine.length).padStart(3)} pages  AUC ${auc(
      subset.map(([, p]) => p),
      labelsOf(subset.map(([r]) => r)),
    ).toFixed(3)}  at >= 0.4: ${mine.filter(([, p]) => p >= 0.4).length}`,
  );
}
targets(byWriterValidation, 'leave one writer out');
if (process.argv.includes('--explain')) explainFalseAlarms(byWriterValidation);
if (process.argv.includes('--list')) {
  for (const [r, p] of [...validation.entries()].sort((a, b) => b[1] - a[1]))
    if ((r.label === 'human' && p >= 0.3) || (r.label === 'machine' && p < 0.4))
      console.log(`    ${p.toFixed(3)} ${r.label} ${r.id}`);
}
// The model without every feature that reads markup (list items, headings, code blocks): if it
// holds, the page model is reading the writing, not the corpus's structure.
const STRUCTURAL = [
  'term_explanation_items',
  'title_case_headings',
  'colon_titles',
  'code_per_k',
  'unterminated_sentences',
];
const prose = PAGE_FEATURE_NAMES.map((name, j) => (STRUCTURAL.includes(name) ? -1 : j)).filter((j) => j >= 0);
report(
  'page model without structural features',
  leaveOneOut(
    Object.assign((r) => prose.map((j) => modelVector(r)[j]), {
      shrunk: new Set(prose.map((j, k) => (modelVector.shrunk.has(j) ? k : -1)).filter((k) => k >= 0)),
    }),
  ),
);
if (process.argv.includes('--write')) {
  const vectorOf = modelVector;
  const lambda = chooseLambda(vectorOf, rows, scorable);
  const model = fitPage(rows, vectorOf, lambda);
  const platt = calibrationOf(rawLeaveOneOut(vectorOf, rows, scorable, lambda));
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
    features: PAGE_FEATURE_NAMES,
    mean: model.mean.map(round6),
    scale: model.scale.map(round6),
    weights: model.weights.map(round6),
    bias: round6(model.bias),
    calibration: { slope: round6(platt.slope), intercept: round6(platt.intercept) },
    ...(SHRINK_WORDS > 0
      ? { shrink: { prior_words: SHRINK_WORDS, center: model.center.map(round6), features: SHRUNK_FEATURES } }
      : {}),
    human: Object.fromEntries(
      [
        ['median', 0.5],
        ['p10', 0.1],
        ['p90', 0.9],
      ].map(([key, q]) => [
        key,
        humans[0].features.map((_, j) =>
          round6(
            quantile(
              humans.map((r) => r.features[j]),
              q,
            ),
          ),
        ),
      ]),
    ),
    validation: {
      method: 'leave-one-topic-out',
      lambda,
      pages: rows.length,
      human: humans.length,
      machine: rows.length - humans.length,
      auc: round6(
        auc(
          list.map(([, p]) => p),
          labels,
        ),
      ),
      human_at_or_above_0_4: list.filter(([r, p]) => r.label === 'human' && p >= 0.4).length,
      human_at_or_above_0_7: list.filter(([r, p]) => r.label === 'human' && p >= 0.7).length,
    },
  };
  const file = new URL('../plugins/website-signature/model/page-model.json', import.meta.url);
  writeFileSync(file, `${JSON.stringify(shipped, null, 1)}\n`);
  console.log(`wrote ${file.pathname}`);
}

if (process.env.PAGES_QUICK === '1') process.exit(0);
// A model file written for other features (the features changed, the model not yet refitted with
// --write) cannot score: the in-sample check is skipped, with the reason.
let shipsModel = false;
let modelError = null;
try {
  shipsModel = websiteSignatureShipsModel();
} catch (error) {
  modelError = error;
}
if (modelError) {
  console.log(`the plugin\u2019s page score as shipped: not measured (${modelError.message}; refit with --write)`);
} else {
  const today = new Map();
  const floors = new Map();
  for (const r of rows) {
    const run = await runPlugin(websiteSignature, { html: r.html }).catch(() => null);
    if (!run) continue;
    today.set(r, run.result.overall_score);
    // The page score is the model's probability raised to any floor (stock phrases, placeholder
    // text; the plugin's other strategies are the model's own): where it is above the model's
    // score, it is the floor, which does not depend on the fit.
    const model = run.result.strategy_results.find((s) => s.name === 'page-model')?.score;
    if (model !== undefined && run.result.overall_score > model + 1e-3) floors.set(r, run.result.overall_score);
  }
  // With a model file in place this is the shipped model on the pages it was fitted on: in-sample,
  // a check that the plugin scores as the bench does, not a validation figure.
  report(
    shipsModel
      ? 'the plugin\u2019s page score as shipped (in-sample: its model was fitted on these pages)'
      : 'the plugin\u2019s page score (hand-set, no model file)',
    today,
  );
  if (shipsModel) {
    // The page score a reader sees, out of fold: the model's leave-one-topic-out probability, then the floors.
    const pageScore = new Map([...validation.entries()].map(([r, p]) => [r, Math.max(p, floors.get(r) ?? 0)]));
    const floored = [...floors.keys()].filter(
      (r) => r.label === 'human' && (validation.get(r) ?? 0) < 0.4 && floors.get(r) >= 0.4,
    );
    console.log(
      `the page score out of fold (the model's leave-one-topic-out probability, then the floors): ${floors.size} pages floored, ${floored.length} human pages lifted to 0.4 or more by a floor${floored.length ? ` (${floored.map((r) => r.id).join(', ')})` : ''}`,
    );
    targets(pageScore);
  }
}

/**
 * `--explain`: each human page the writer-out validation scores 0.4 or more, with the features that
 * carry it most (weight times standardized value, the fold's model fitted without the page's
 * writer at the default penalty): the reading the false alarms need before any feature changes.
 */
function explainFalseAlarms(scores) {
  const alarms = [...scores.entries()].filter(([r, p]) => r.label === 'human' && p >= 0.4).sort((a, b) => b[1] - a[1]);
  console.log(`human pages at >= 0.4 leaving their writer out (${alarms.length}), with their largest contributions:`);
  for (const [page, p] of alarms) {
    const model = fitPage(
      rows.filter((r) => byWriter(r) !== byWriter(page)),
      modelVector,
    );
    const x = modelVector(page);
    const standardized = model.z(x, page);
    const parts = x
      .map((v, j) => ({
        name: PAGE_FEATURE_NAMES[j],
        value: v,
        z: standardized[j],
        part: standardized[j] * model.weights[j],
      }))
      .sort((a, b) => b.part - a.part);
    const show = (c) =>
      `${c.name} ${c.value.toFixed(3)} (z ${c.z.toFixed(1)}, ${c.part >= 0 ? '+' : ''}${c.part.toFixed(2)})`;
    console.log(`  ${p.toFixed(3)} ${page.id} (${page.brief}, ${page.prose} words)`);
    console.log(`    toward machine: ${parts.slice(0, 5).map(show).join('; ')}`);
    console.log(`    toward human:   ${parts.slice(-3).reverse().map(show).join('; ')}`);
  }
}
