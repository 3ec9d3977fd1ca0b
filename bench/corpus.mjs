// `pnpm bench corpus`: rebuilds the development corpus from local mirrors (CADENCE_MIRRORS, default
// /work/.mirror; repositories in bench/corpus/repositories.yaml), validates the commit model leave
// one repository out, and prints precision, recall and AUC. With --write it also refits the shipped
// model (plugins/commit-model/model/commit-model.json). Needs the mirrors: never run in CI.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCorpus, ERA_CHECK_BEFORE, loadCorpusConfig, mirrorOf } from './corpus/build.mjs';
import { finalModel, PREVALENCE, CALIBRATION_PRIOR, TARGETS } from './corpus/train.mjs';
import { validate } from './corpus/folds.mjs';
import { printCarriedByRequests } from './corpus/request-heads.mjs';
import { atPrior, emPrior, printNotesTruth } from './corpus/notes-truth.mjs';
import { finalTokens, STACKED } from './corpus/token-features.mjs';

// The readings that change the folds are for validation only: `--write` fits the shipped model on
// every feature and repository. Refused before the build (about 50 minutes), not after it.
const VALIDATION_ONLY = [
  'CORPUS_DROP_FEATURES',
  'CORPUS_UNKNOWN_IN_HELD_OUT',
  'CORPUS_LEAVE_OWNER_OUT',
  'CORPUS_ERA_AS_HUMAN',
];
const setting = VALIDATION_ONLY.find((name) => (process.env[name] ?? '') !== '' && process.env[name] !== '0');
if (setting && process.argv.includes('--write')) throw new Error(`${setting} is for validation only (drop --write)`);

const present = loadCorpusConfig().repositories.filter((r) => existsSync(mirrorOf(r.repo)));
if (present.length < 3) {
  console.log(
    `corpus: ${present.length} of the configured mirrors are present; nothing to measure (this benchmark needs the mirrors).`,
  );
  process.exit(0);
}
// --reuse reads the corpus the last run built (a development convenience); by default it is rebuilt.
const cache = path.join(tmpdir(), 'cadence-corpus.json');
let corpus;
if (process.argv.includes('--reuse') && existsSync(cache)) {
  corpus = JSON.parse(readFileSync(cache, 'utf8'));
  console.log(`reusing the corpus built at ${statSync(cache).mtime.toISOString()} (${cache})`);
} else {
  console.log('building the corpus (attribution stripped):');
  corpus = await buildCorpus();
  writeFileSync(cache, JSON.stringify(corpus));
}
// The rows hold every feature but the stacked ones at the end (message_tokens, code_tokens): each
// fold computes those from the rows' messages and added code (corpus/token-features.mjs).
const stored = corpus.features.slice(0, -STACKED.length);
if (corpus.features.slice(-STACKED.length).join() !== STACKED.join())
  throw new Error(`the corpus's last features are not ${STACKED.join(', ')}: rebuild it (drop --reuse)`);
// CORPUS_DROP_FEATURES=a,b validates without those features (an ablation: before/after a feature change).
const drop = new Set((process.env.CORPUS_DROP_FEATURES ?? '').split(',').filter(Boolean));
const stacked = STACKED.filter((name) => !drop.has(name));
if (drop.size > 0) {
  const keep = stored.map((name, j) => (drop.has(name) ? -1 : j)).filter((j) => j >= 0);
  console.log(
    `without ${[...drop].join(', ')} (${keep.length + stacked.length} of ${corpus.features.length} features)`,
  );
  const cut = (r) => ({ ...r, features: keep.map((j) => r.features[j]) });
  corpus = {
    ...corpus,
    features: [...keep.map((j) => stored[j]), ...stacked],
    rows: corpus.rows.map(cut),
    eraCheck: (corpus.eraCheck ?? []).map(cut),
    lineTruth: (corpus.lineTruth ?? []).map(cut),
  };
}
// CORPUS_UNKNOWN_IN_HELD_OUT=code_tokens: the held-out repository's commits go without that feature
// (read at its mean), as the plugin judges without lines or in a pushed range.
const unknownInHeldOut = (process.env.CORPUS_UNKNOWN_IN_HELD_OUT ?? '').split(',').filter(Boolean);
// CORPUS_ERA_AS_HUMAN=1: the era check's commits (2021 to October 2022) join the human class, trained
// on and measured: a gain that holds then is not the years the human class otherwise leaves out.
if (process.env.CORPUS_ERA_AS_HUMAN === '1') {
  corpus = {
    ...corpus,
    rows: [...corpus.rows, ...(corpus.eraCheck ?? []).map((r) => ({ ...r, label: 'human' }))],
    eraCheck: [],
  };
  console.log(`the era check's commits are in the human class: ${corpus.rows.length} labelled commits`);
}
const rows = corpus.rows;
const assistant = rows.filter((r) => r.label === 'assistant').length;
console.log(
  `${rows.length} labeled commits from ${corpus.repositories.length} repositories: ${assistant} assistant, ${rows.length - assistant} human`,
);
console.log(`attribution rules firing after stripping (must be 0): ${corpus.leftAfterStripping}`);
for (const [rule, quotes] of Object.entries(corpus.leftByRule))
  console.log(`  ${rule}: ${quotes.map((q) => JSON.stringify(q)).join(', ')}`);
const labels = Object.values(corpus.ruleCounts).length
  ? Object.entries(corpus.ruleCounts)
      .map(([id, n]) => `${id} ${n}`)
      .join(', ')
  : 'none';
console.log(`label rules (commits each labeled, a commit can match several): ${labels}`);
console.log('leave-one-repository-out:');
const outOfFold = new Map();
const validation = await validate(rows, {
  eraCheck: corpus.eraCheck ?? [],
  alsoScore: corpus.lineTruth ?? [],
  onScored: (row, p, flagAt) => outOfFold.set(row.hash, { p, flagAt }),
  tokens: { names: stacked, unknownInHeldOut },
});
/** A repository's figure joins the spread from this many written commits (fewer say little). */
const SPREAD_MIN_COMMITS = 10;
const pct = (v) => (v === null || v === undefined ? '-' : v.toFixed(3));
const show = (name, f) =>
  console.log(
    `${name}: precision ${pct(f.precision)} (at 1:3.2 prevalence ${pct(f.precision_at_prevalence)}), recall ${pct(f.recall)}, false-positive rate ${pct(f.false_positive_rate)}`,
  );
console.log(`AUC (inferred signals alone): ${pct(validation.auc)}`);
show('inferred signals alone (attributions stripped)', validation.inferred);
show('attribution alone', validation.attribution_alone);
show('with attribution', validation.with_attribution);
const era = validation.era_check;
console.log(
  `era check (unlabeled commits from each human cut-off to ${ERA_CHECK_BEFORE}, never trained on): ${era.flagged} of ${era.commits} flagged from ${era.repositories} repositories, false-positive rate ${pct(era.false_positive_rate)} (precision at 1:3.2 if human commits looked like these ${pct(era.precision_at_prevalence)})`,
);
{
  // What the line readings' prior moves do to commits known to be people's (notes-truth.mjs): the era
  // commits' mean probability at the calibration prior, and moved to each repository's era commits'
  // own prior (EM, 20 pseudo-commits at the calibration prior).
  let at = 0;
  let moved = 0;
  let count = 0;
  const priors = [];
  for (const [repo, ps] of Object.entries(validation.era_probabilities ?? {})) {
    const prior = emPrior(ps, CALIBRATION_PRIOR, { pseudo: 20 });
    priors.push(`${repo} ${pct(prior)}`);
    for (const p of ps) {
      at += p;
      moved += atPrior(p, CALIBRATION_PRIOR, prior);
      count++;
    }
  }
  if (count > 0)
    console.log(
      `era check's mean probability (${count} commits): ${pct(at / count)} at the calibration prior, ${pct(moved / count)} moved to each repository's own (${priors.join(', ')})`,
    );
}
console.log('per repository (mean probability on assistant / human commits, recall, false-positive rate):');
for (const r of validation.by_repository) {
  console.log(
    `  ${r.repo.padEnd(40)} a=${String(r.assistant).padStart(4)} h=${String(r.human).padStart(4)}  p_a ${pct(r.mean_p_assistant)}  p_h ${pct(r.mean_p_human)}  recall ${pct(r.recall)}  fpr ${pct(r.false_positive_rate)}`,
  );
}
console.log(
  "per assistant (the assistant the labelling rule names; inferred signals alone, out of fold). Written: the tool composed the message; carried: a person's commit carrying the work (docs/scoring.md):",
);
console.log(
  `  ${'assistant'.padEnd(14)} ${'commits'.padStart(7)} ${'repos'.padStart(5)}  recall  mean p  (with attribution)  ${'written'.padStart(7)} recall  ${'carried'.padStart(7)} recall`,
);
for (const a of validation.by_assistant) {
  console.log(
    `  ${a.assistant.padEnd(14)} ${String(a.commits).padStart(7)} ${String(a.repositories).padStart(5)}  ${pct(a.recall)}   ${pct(a.mean_p)}   (${pct(a.recall_with_attribution)})            ${String(a.written).padStart(7)} ${pct(a.recall_written)}   ${String(a.carried).padStart(7)} ${pct(a.recall_carried)}`,
  );
}
const spread = (name) => {
  const a = validation.by_assistant.find((x) => x.assistant === name);
  if (!a) return;
  const measured = a.by_repository.filter((r) => r.written >= SPREAD_MIN_COMMITS);
  const recalls = measured.map((r) => r.recall_written).sort((x, y) => x - y);
  const median = recalls.length ? recalls[Math.floor(recalls.length / 2)] : null;
  console.log(
    `spread across repositories, ${name}'s written commits (${measured.length} repositories with ${SPREAD_MIN_COMMITS} or more${recalls.length ? `: recall min ${pct(recalls[0])}, median ${pct(median)}, max ${pct(recalls[recalls.length - 1])}` : ''}):`,
  );
  for (const r of a.by_repository)
    console.log(`  ${r.repo.padEnd(40)} written ${String(r.written).padStart(4)}  recall ${pct(r.recall_written)}`);
};
spread('copilot-agent');
// OpenHands' written commits come from the agent's own projects and from owners who run it on theirs.
spread('openhands');
console.log(`(calibration prior ${CALIBRATION_PRIOR}, prevalence for precision ${PREVALENCE.toFixed(3)})`);
const met = (ok) => (ok ? 'met' : 'NOT met');
const inferred = validation.inferred;
const written = validation.inferred_written;
console.log('targets (inferred signals alone, leave one repository out, at 1 assistant commit to 3.2 human ones):');
console.log(
  `  precision (every assistant commit, written and carried) >= ${TARGETS.precision}: ${pct(inferred.precision_at_prevalence)} ${met(inferred.precision_at_prevalence >= TARGETS.precision)} (written commits alone ${pct(written.precision_at_prevalence)})`,
);
console.log(
  `  recall on written commits >= ${TARGETS.recall}: ${pct(written.recall)} ${met(written.recall >= TARGETS.recall)}`,
);
for (const a of validation.by_assistant.filter((x) => x.written >= TARGETS.assistantMinCommits)) {
  console.log(
    `  recall on ${a.assistant}'s written commits (${a.written}) >= ${TARGETS.assistantRecall}: ${pct(a.recall_written)} ${met(a.recall_written >= TARGETS.assistantRecall)}`,
  );
}
const carried = validation.by_assistant.filter((a) => a.carried > 0);
console.log(
  `  carried commits, no target: ${carried.map((a) => `${a.assistant} ${a.carried} at ${pct(a.recall_carried)}`).join(', ')}`,
);
console.log(`  (every assistant commit together: recall ${pct(inferred.recall)})`);
// CORPUS_READINGS=0 skips the two readings below, which read every mirror (a development run of a few folds).
if (process.env.CORPUS_READINGS !== '0') {
  const mirrors = present.map((r) => ({ repo: r.repo, dir: mirrorOf(r.repo) }));
  await printCarriedByRequests(mirrors);
  await printNotesTruth(mirrors, outOfFold);
}
if (process.argv.includes('--write')) {
  const tokens = finalTokens(rows, corpus.eraCheck ?? []);
  const model = finalModel(
    tokens.rows,
    corpus.features,
    {
      method: 'leave-one-repository-out',
      repositories: corpus.repositories,
      label_rules: corpus.ruleCounts,
      auc: validation.auc,
      inferred: validation.inferred,
      with_attribution: validation.with_attribution,
      by_assistant: validation.by_assistant,
      era_check: validation.era_check,
    },
    tokens.era,
  );
  const file = new URL('../plugins/commit-model/model/commit-model.json', import.meta.url);
  writeFileSync(file, `${JSON.stringify(model, null, 1)}\n`);
  console.log(`wrote ${file.pathname} (flag at ${model.flagAt})`);
  const files = { message_tokens: 'message-tokens.bin', code_tokens: 'code-tokens.bin' };
  for (const [name, bytes] of Object.entries(tokens.models)) {
    const tokenFile = new URL(`../plugins/commit-model/model/${files[name]}`, import.meta.url);
    writeFileSync(tokenFile, bytes);
    console.log(`wrote ${tokenFile.pathname} (${bytes.length} bytes)`);
  }
}
