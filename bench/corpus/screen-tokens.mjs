// `node bench/corpus/screen-tokens.mjs [--variant=<name>]`: a screen, not a feature of the engine.
// A model of the tokens of a commit's added lines and of its message (attribution stripped): hashed
// word unigrams and bigrams of the added lines (comment words apart from code), the message's words
// and the subject's character 4-grams, in a logistic regression. Stacked on the commit model: in each
// leave-one-repository-out fold, the token model's logit becomes one more feature, computed for the
// held-out repository by a token model fitted on the training repositories, and for the training
// rows by inner folds of those repositories (a row's value never comes from a fit that saw its
// repository, nor the held-out one). Reads the corpus the last `pnpm bench corpus` built, prints the
// commit model's figures without and with the stacked feature from the same folds, and the token
// model's own out-of-fold AUC per assistant (docs/scoring.md, "Reading the added code").
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auc } from '@cadence-detect/model-fitting';
import { mirrorOf, pathsWithMissingObjects } from './build.mjs';
import { loadLabelRules, stripAttribution } from './corpus-labels.mjs';
import { PREVALENCE, validate } from './train.mjs';

const corpusFile = path.join(tmpdir(), 'cadence-corpus.json');
const textsFile = path.join(tmpdir(), 'cadence-corpus-texts.json');
const variant = /--variant=(\S+)/.exec(process.argv.join(' '))?.[1] ?? 'all';
/** Which parts of a commit the token model reads (the screen's variants). */
const PARTS = {
  all: { code: true, comments: true, message: true, family: false },
  family: { code: true, comments: true, message: true, family: true },
  code: { code: true, comments: true, message: false, family: false },
  message: { code: false, comments: false, message: true, family: false },
}[variant];
if (!PARTS) throw new Error(`unknown variant ${variant}`);

/**
 * --drop-names: leave out every token that names an assistant or its maker (a file that says
 * "Claude" is nearly an attribution), to see how much of the model is such names.
 */
const DROP_NAMES = process.argv.includes('--drop-names');
const ASSISTANT_NAME = /claude|anthropic|copilot|cursor|gemini|aider|openhands|devin|codex|crush|openai|chatgpt|gpt|windsurf|cline|junie|posthog/i;
const MAX_LINES = 600;
const MAX_LINE_CHARS = 160;
const SKIPPED_FILE = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock|Cargo\.lock|poetry\.lock|uv\.lock|go\.sum|composer\.lock|Gemfile\.lock)$|(^|\/)(vendor|node_modules|dist|third_party)\/|\.(min\.js|map|svg|snap|lock)$/;

/** The stripped message and the added lines of every commit named, one `git log` per repository. */
async function readTexts(repo, hashes, rules) {
  const cwd = mirrorOf(repo);
  const omit = pathsWithMissingObjects(cwd, 'HEAD');
  const messages = new Map();
  const meta = execFileSync('git', ['log', '--no-walk=unsorted', '--stdin', '--format=%H%x00%an%x00%ae%x00%cn%x00%ce%x00%s%x00%b%x1e'], {
    cwd,
    input: hashes.join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  for (const record of meta.split('\x1e')) {
    const [hash, authorName, authorEmail, committerName, committerEmail, subject, body] = record.replace(/^\n/, '').split('\0');
    if (!hash || body === undefined) continue;
    const stripped = stripAttribution({ subject, body, authorName, authorEmail, committerName, committerEmail }, rules);
    messages.set(hash, `${stripped.subject}\n\n${stripped.body}`.trim());
  }
  const added = new Map(hashes.map((h) => [h, []]));
  const pathspecs = ['.', ...omit.map((p) => `:(exclude,literal)${p}`)];
  await new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'core.quotePath=false', 'log', '--no-walk=unsorted', '--stdin', '--format=%x1e%H', '-p', '-U0', '--no-color', '--no-ext-diff', '--no-renames', '--', ...pathspecs], { cwd });
    let buffer = '';
    let current = null;
    let file = null;
    const take = (line) => {
      if (line.startsWith('\x1e')) {
        current = added.get(line.slice(1)) ?? null;
        file = null;
      } else if (line.startsWith('+++ ')) {
        const name = line.slice(4).replace(/^b\//, '');
        file = name === '/dev/null' || SKIPPED_FILE.test(name) ? null : name;
      } else if (current && file && line.startsWith('+') && current.length < MAX_LINES) {
        current.push([file, line.slice(1, 1 + MAX_LINE_CHARS)]);
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) take(line);
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      take(buffer);
      if (code !== 0) process.stderr.write(`  ${repo}: git log -p exited ${code}; the commits read so far are kept\n`);
      resolve();
    });
    child.stdin.end(hashes.join('\n'));
  });
  return hashes.map((h) => ({ hash: h, message: messages.get(h) ?? '', added: added.get(h) }));
}

const COMMENT = /^\s*(\/\/+|#(?!include|define|if|endif|else|pragma|import|!)|\/\*+|\*|"""|'''|--\s|<!--)/;
const FAMILY = [
  [/\.(ts|tsx|js|jsx|mjs|cjs|vue|svelte)$/, 'js'],
  [/\.py$/, 'py'],
  [/\.rs$/, 'rs'],
  [/\.go$/, 'go'],
  [/\.(c|h|cc|cpp|hpp|m|mm|java|kt|cs|swift|scala|dart|zig)$/, 'c'],
  [/\.(md|mdx|rst|txt|adoc)$/, 'doc'],
  [/\.(ya?ml|json|toml|ini|cfg)$/, 'conf'],
];
const familyOf = (file) => FAMILY.find(([re]) => re.test(file))?.[1] ?? 'other';
const WORD = /[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_]{1,3}/g;
const BITS = 20;
const MASK = (1 << BITS) - 1;

function hashOf(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) & MASK;
}

/** A commit's sparse vector: presence of each hashed token, each part scaled to unit length. */
function vectorOf(text) {
  const parts = new Map();
  const add = (part, token) => {
    if (DROP_NAMES && ASSISTANT_NAME.test(token)) return;
    if (!parts.has(part)) parts.set(part, new Set());
    parts.get(part).add(hashOf(`${part}:${token}`));
  };
  for (const [file, line] of text.added) {
    const family = PARTS.family ? familyOf(file) : '';
    const comment = COMMENT.test(line);
    if (comment ? !PARTS.comments : !PARTS.code) continue;
    const part = `${comment ? 'c' : 'k'}${family}`;
    const words = line.match(WORD) ?? [];
    for (let i = 0; i < words.length; i++) {
      add(part, words[i]);
      if (i > 0) add(part, `${words[i - 1]} ${words[i]}`);
    }
    add('shape', `${/^\t/.test(line) ? 'tab' : /^ {4}/.test(line) ? 's4' : /^ {2}/.test(line) ? 's2' : 'n'}:${words[0] ?? ''}`);
  }
  if (PARTS.message) {
    const words = text.message.toLowerCase().match(WORD) ?? [];
    for (let i = 0; i < words.length; i++) {
      add('m', words[i]);
      if (i > 0) add('m', `${words[i - 1]} ${words[i]}`);
    }
    const subject = ` ${text.message.split('\n')[0].toLowerCase()} `;
    for (let i = 0; i + 4 <= subject.length; i++) add('s', subject.slice(i, i + 4));
  }
  const index = [];
  const value = [];
  for (const set of parts.values()) {
    const v = 1 / Math.sqrt(set.size);
    for (const j of set) {
      index.push(j);
      value.push(v);
    }
  }
  return { index: Int32Array.from(index), value: Float32Array.from(value) };
}

const EPOCHS = 4;
const RATE = 0.2;
const L2 = 1e-5;

/** Logistic regression by AdaGrad, classes weighted to equal shares; a deterministic order. */
function fitTokens(rows, vectors) {
  const w = new Float32Array(1 << BITS);
  const g2 = new Float32Array(1 << BITS).fill(1e-8);
  let bias = 0;
  const positives = rows.filter((r) => r.label === 'assistant').length;
  const weightOf = (r) => (r.label === 'assistant' ? rows.length / (2 * positives) : rows.length / (2 * (rows.length - positives)));
  const order = rows.map((_, i) => i);
  let state = 12345;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      state = (state * 1664525 + 1013904223) >>> 0;
      const j = state % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const r = rows[i];
      const x = vectors.get(r.hash);
      let z = bias;
      for (let k = 0; k < x.index.length; k++) z += w[x.index[k]] * x.value[k];
      const grad = (1 / (1 + Math.exp(-z)) - (r.label === 'assistant' ? 1 : 0)) * weightOf(r);
      bias -= 0.01 * grad;
      for (let k = 0; k < x.index.length; k++) {
        const j = x.index[k];
        const g = grad * x.value[k] + L2 * w[j];
        g2[j] += g * g;
        w[j] -= (RATE / Math.sqrt(g2[j])) * g;
      }
    }
  }
  return (row) => {
    const x = vectors.get(row.hash);
    let z = bias;
    for (let k = 0; k < x.index.length; k++) z += w[x.index[k]] * x.value[k];
    return z;
  };
}

const INNER = 6;
/** The stacked feature for one outer fold (train.mjs's `augment`). */
function stackedTokens(vectors) {
  return (train, heldOut) => {
    const extra = new Map();
    const outer = fitTokens(train, vectors);
    for (const r of heldOut) extra.set(r, [outer(r)]);
    const repos = [...new Set(train.map((r) => r.repo))].sort();
    const foldOf = new Map(repos.map((repo, i) => [repo, i % INNER]));
    for (let fold = 0; fold < INNER; fold++) {
      const inner = fitTokens(train.filter((r) => foldOf.get(r.repo) !== fold), vectors);
      for (const r of train.filter((x) => foldOf.get(x.repo) === fold)) extra.set(r, [inner(r)]);
    }
    return extra;
  };
}

const corpus = JSON.parse(readFileSync(corpusFile, 'utf8'));
// --era-as-human: the era check's commits (2021 to October 2022, before any assistant) join the
// human class, trained on and measured: what is left of a gain is not the years the human class
// leaves out (the test the nearby features had, docs/scoring.md).
if (process.argv.includes('--era-as-human')) {
  corpus.rows = [...corpus.rows, ...(corpus.eraCheck ?? []).map((r) => ({ ...r, label: 'human' }))];
  corpus.eraCheck = [];
  console.log(`the era check's commits are in the human class: ${corpus.rows.length} labelled commits`);
}
const everyRow = [...corpus.rows, ...(corpus.eraCheck ?? []), ...(corpus.lineTruth ?? [])];
let texts;
if (existsSync(textsFile) && process.argv.includes('--reuse-texts')) texts = JSON.parse(readFileSync(textsFile, 'utf8'));
else {
  const rules = loadLabelRules();
  texts = {};
  const byRepo = new Map();
  for (const r of everyRow) byRepo.set(r.repo, new Set([...(byRepo.get(r.repo) ?? []), r.hash]));
  for (const [repo, hashes] of byRepo) {
    for (const t of await readTexts(repo, [...hashes], rules)) texts[t.hash] = t;
    process.stderr.write(`  read ${repo} (${hashes.size} commits)\n`);
  }
  writeFileSync(textsFile, JSON.stringify(texts));
}
const vectors = new Map(Object.values(texts).map((t) => [t.hash, vectorOf(t)]));
const noCode = corpus.rows.filter((r) => texts[r.hash].added.length === 0).length;
console.log(`variant ${variant}${DROP_NAMES ? ', names of assistants left out' : ''}: ${vectors.size} commits read, ${noCode} labelled commits with no added line read`);

// The token model alone, leave one repository out.
const alone = new Map();
for (const repo of new Set(corpus.rows.map((r) => r.repo))) {
  const score = fitTokens(corpus.rows.filter((r) => r.repo !== repo), vectors);
  for (const r of corpus.rows.filter((x) => x.repo === repo)) alone.set(r, score(r));
}
const label = (r) => (r.label === 'assistant' ? 1 : 0);
const written = corpus.rows.filter((r) => r.label === 'human' || r.origin === 'written');
console.log(`token model alone, leave one repository out: AUC ${auc(corpus.rows.map((r) => alone.get(r)), corpus.rows.map(label)).toFixed(3)}, written commits against human ones ${auc(written.map((r) => alone.get(r)), written.map(label)).toFixed(3)}`);
const humans = corpus.rows.filter((r) => r.label === 'human');
for (const name of [...new Set(corpus.rows.filter((r) => r.assistant).map((r) => r.assistant))].sort()) {
  const mine = written.filter((r) => r.assistant === name);
  if (mine.length < 20) continue;
  const both = [...mine, ...humans];
  console.log(`  ${name.padEnd(14)} written ${String(mine.length).padStart(5)}  AUC against human ${auc(both.map((r) => alone.get(r)), both.map(label)).toFixed(3)}`);
}

const quiet = () => {};
const figuresOf = (v) => {
  const w = v.inferred_written;
  const lines = [`precision ${v.inferred.precision_at_prevalence.toFixed(3)} (written ${w.precision_at_prevalence.toFixed(3)}), written recall ${w.recall.toFixed(3)}, AUC ${v.auc.toFixed(3)}, era check ${v.era_check.flagged} of ${v.era_check.commits}, false-positive rate ${v.inferred.false_positive_rate.toFixed(4)}`];
  for (const a of v.by_assistant.filter((x) => x.written >= 50)) lines.push(`    ${a.assistant.padEnd(14)} written ${String(a.written).padStart(5)} recall ${a.recall_written.toFixed(3)}`);
  return lines.join('\n');
};
const base = validate(corpus.rows, { log: quiet, eraCheck: corpus.eraCheck ?? [] });
console.log(`commit model (the shipped features), same folds:\n  ${figuresOf(base)}`);
const stacked = validate(corpus.rows, { log: quiet, eraCheck: corpus.eraCheck ?? [], augment: stackedTokens(vectors) });
console.log(`commit model with the token model's logit stacked:\n  ${figuresOf(stacked)}`);
console.log(`(precision at 1 assistant commit to ${((1 - PREVALENCE) / PREVALENCE).toFixed(1)} human ones)`);
