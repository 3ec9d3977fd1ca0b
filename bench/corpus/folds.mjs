// Leave-one-repository-out validation of the commit model: one fold per repository, each fitting
// everything (standardization, weights, stacked token models, calibration, cut-off) on the other
// repositories alone. Folds are independent, so they run in worker threads (CORPUS_WORKERS, by
// default one per core): the same figures as one after another, in the time of a share of them.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
import { sigmoid } from '@cadence-detect/model-fitting';
import { calibrate, fitRaw, groupByRepo, PREVALENCE, summarize } from './train.mjs';
import { stackedTokens } from './token-features.mjs';

const ownerOf = (name) => name.split('/')[0].toLowerCase();

/**
 * One fold: `repo` held out. Returns the cut-off and the probabilities of the held-out repository's
 * rows, its `alsoScore` rows and its era-check rows, each as [index in its array, probability].
 * `tokens` ({ names, unknownInHeldOut }) names the stacked token features (token-features.mjs), fitted
 * on the fold's training repositories alone. `ownerOut`: the held-out repository's owner's other
 * repositories leave training too.
 */
export function runFold(repo, { rows, eraCheck = [], alsoScore = [], tokens, ownerOut = false }) {
  const indexed = (list) => list.map((r, i) => [r, i]).filter(([r]) => r.repo === repo);
  const test = indexed(rows);
  const also = indexed(alsoScore);
  const era = indexed(eraCheck);
  const inTraining = (r) => (ownerOut ? ownerOf(r.repo) !== ownerOf(repo) : r.repo !== repo);
  const trainRows = rows.filter(inTraining);
  // The training repositories' era commits: the cut-off's precision holds against them too.
  const trainEraRows = eraCheck.filter(inTraining);
  const augment = tokens?.names.length ? stackedTokens(tokens.names, tokens) : undefined;
  const extra = augment?.(trainRows, [...test, ...also, ...era].map(([r]) => r), trainEraRows);
  const extended = (r) => (extra ? { ...r, features: [...r.features, ...extra.get(r)] } : r);
  const train = trainRows.map(extended);
  const model = fitRaw(train);
  const { platt, flagAt, innerFalsePositiveRate, innerEraRate } = calibrate(train, trainEraRows.map(extended));
  const probability = (r) => sigmoid(platt.slope * model.raw(extended(r).features) + platt.intercept);
  const scored = (list) => list.map(([r, i]) => [i, probability(r)]);
  return { repo, flagAt, innerFalsePositiveRate, innerEraRate, test: scored(test), also: scored(also), era: scored(era) };
}

/** Runs `folds` in `workers` worker threads (fold-worker.mjs), each fold as soon as a worker is free. */
function runInWorkers(folds, data, workers, onFold) {
  return new Promise((resolve, reject) => {
    const pending = [...folds];
    const done = [];
    let running = 0;
    let failed = false;
    const start = () => {
      const worker = new Worker(new URL('./fold-worker.mjs', import.meta.url), { workerData: data });
      running++;
      const next = () => {
        const repo = pending.shift();
        if (repo === undefined) return void worker.terminate();
        worker.postMessage(repo);
      };
      worker.on('message', (result) => {
        done.push(result);
        onFold(result);
        next();
      });
      worker.on('error', (error) => {
        failed = true;
        reject(error);
      });
      worker.on('exit', () => {
        running--;
        if (running === 0 && !failed) resolve(done);
      });
      next();
    };
    for (let i = 0; i < Math.min(workers, folds.length); i++) start();
  });
}

/**
 * `eraCheck`: rows scored by the fold of their repository and never trained on (build.mjs,
 * ERA_CHECK_BEFORE); their flag rate is reported apart (`era_check`), beside the human class's.
 * `onScored` hears each row's out-of-fold probability and its fold's cut-off, and those of
 * `alsoScore`'s rows (never trained on, never in the figures: the lines' truth, notes-truth.mjs).
 */
export async function validate(
  rows,
  { log = console.log, eraCheck = [], alsoScore = [], onScored, tokens, workers = Number(process.env.CORPUS_WORKERS ?? availableParallelism()) } = {},
) {
  // CORPUS_FOLDS=owner/name,…: only those repositories' folds (a development reading: one held-out
  // repository in seconds; the summary then covers those repositories alone).
  const only = new Set((process.env.CORPUS_FOLDS ?? '').split(',').filter(Boolean));
  const folds = [...groupByRepo(rows).keys()].filter((repo) => only.size === 0 || only.has(repo));
  // CORPUS_LEAVE_OWNER_OUT=1: each fold also trains without the held-out repository's owner's other
  // repositories (one owner writes alike across projects: a stricter reading, validation only).
  const ownerOut = process.env.CORPUS_LEAVE_OWNER_OUT === '1';
  const data = { rows, eraCheck, alsoScore, tokens, ownerOut };
  const percent = (v) => `${(100 * v).toFixed(1)}%`;
  const say = (f) =>
    log(
      `  fold ${f.repo}: flag at ${f.flagAt.toFixed(2)} (inner folds: ${percent(f.innerFalsePositiveRate)} of the human commits, ${percent(f.innerEraRate)} of the era commits flagged)`,
    );
  let outcomes;
  if (workers > 1 && folds.length > 1) outcomes = await runInWorkers(folds, data, workers, say);
  else
    outcomes = folds.map((repo) => {
      const f = runFold(repo, data);
      say(f);
      return f;
    });
  // In the folds' order, whichever worker finished first: the same figures and files every run.
  const order = new Map(folds.map((repo, i) => [repo, i]));
  outcomes.sort((a, b) => order.get(a.repo) - order.get(b.repo));
  const results = [];
  const checked = [];
  for (const { flagAt, test, also, era } of outcomes) {
    for (const [i, p] of test) {
      results.push({ row: rows[i], p, flagAt });
      onScored?.(rows[i], p, flagAt);
    }
    for (const [i, p] of also) onScored?.(alsoScore[i], p, flagAt);
    for (const [i, p] of era) checked.push({ row: eraCheck[i], p, flagged: p >= flagAt });
  }
  const summary = summarize(results);
  // CORPUS_SCORES=<file>: every row's out-of-fold probability and its fold's cut-off, for comparing
  // two versions at the same recall (cut-offs chosen per fold move by more than some changes do).
  if (process.env.CORPUS_SCORES)
    writeFileSync(
      process.env.CORPUS_SCORES,
      JSON.stringify(
        results.map(({ row, p, flagAt }) => ({ repo: row.repo, hash: row.hash, label: row.label, assistant: row.assistant ?? null, origin: row.origin ?? null, p, flagAt })),
      ),
    );
  const flagged = checked.filter((x) => x.flagged).length;
  const recall = summary.inferred.recall;
  const rate = checked.length ? flagged / checked.length : null;
  summary.era_check = {
    commits: checked.length,
    repositories: new Set(checked.map((x) => x.row.repo)).size,
    flagged,
    false_positive_rate: rate,
    // The precision the model would have at PREVALENCE if human commits looked like these.
    precision_at_prevalence: rate === null ? null : (recall * PREVALENCE) / (recall * PREVALENCE + rate * (1 - PREVALENCE)),
  };
  // Each era commit's out-of-fold probability, by repository (the line readings' priors, notes-truth.mjs).
  summary.era_probabilities = Object.fromEntries(
    [...new Set(checked.map((x) => x.row.repo))].map((repo) => [repo, checked.filter((x) => x.row.repo === repo).map((x) => x.p)]),
  );
  return summary;
}
