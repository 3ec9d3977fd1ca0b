// Builds the development corpus from local bare mirrors: reads each repository's history with the
// engine's own reader, labels commits (label-rules.yaml), strips every attribution, and extracts the
// commit model's features from the stripped records. Writes one JSON dataset (not committed).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_EXCLUDE_FILES } from '@cadence-detect/config';
import { copiedCommits, linkAuthorIntervals, readHistory } from '@cadence-detect/git-source';
import { compileRules, attributeCommit } from '@cadence-detect/plugin-attribution';
import { extractFeatures, FEATURE_NAMES, isImportedTree } from '@cadence-detect/plugin-commit-model';
import { assistantOf, labelOf, labelRulesOf, loadAssistantNames, loadLabelRules, originOf, stripAttribution } from './corpus-labels.mjs';
import { hasNotes } from './notes-truth.mjs';
import { codeVectorsOf } from './code-vectors.mjs';
import { STACKED } from './token-features.mjs';

export const MIRRORS = process.env.CADENCE_MIRRORS ?? '/work/.mirror';
const CONFIG = new URL('./repositories.yaml', import.meta.url);
/** No repository may dominate: at most this many labeled commits per class and repository. */
const PER_CLASS_CAP = Number(process.env.CORPUS_CAP ?? 400);
/**
 * The era check: commits from a repository's human cut-off to the end of October 2022 (before
 * ChatGPT and any coding agent) that no rule labels and no automation account made. Almost surely
 * human, and from the years the human class leaves out: never trained on, only scored out of fold,
 * so that a feature that learns "written after 2020" rather than "assistant-made" shows (at most
 * this many per repository).
 */
export const ERA_CHECK_BEFORE = '2022-11-01';
const ERA_CHECK_CAP = 300;

export function mirrorOf(repo) {
  return path.join(MIRRORS, repo.replace('/', '+'), 'repo');
}

/**
 * Mirrors can lack their largest objects; `git log --numstat` stops at the first one it needs. The
 * paths whose versions are missing are found from `git log --raw` (which names blobs without
 * reading them) and left out of the corpus.
 */
export function pathsWithMissingObjects(mirror, rev) {
  const git = (args) => execFileSync('git', args, { cwd: mirror, maxBuffer: 1 << 30, encoding: 'utf8' });
  const missing = new Set(
    git(['rev-list', '--objects', '--missing=print', rev])
      .split('\n')
      .filter((l) => l.startsWith('?'))
      .map((l) => l.slice(1).trim()),
  );
  if (missing.size === 0) return [];
  const paths = new Set();
  const raw = git(['log', '--raw', '--no-abbrev', '--no-renames', '-z', '--format=', rev]);
  const fields = raw.split('\0');
  for (let i = 0; i < fields.length - 1; i++) {
    const meta = fields[i].trim();
    if (!meta.startsWith(':')) continue;
    const [, , before, after] = meta.slice(1).split(' ');
    const path = fields[i + 1];
    if (missing.has(before) || missing.has(after)) paths.add(path);
    i++;
  }
  return [...paths];
}

/**
 * A mirror's history as the engine reads it. With CORPUS_HISTORY_CACHE (a folder) the records are
 * kept there per repository and revision, so that trying a feature does not re-read every history
 * (a development convenience: delete the folder after changing the history reader).
 */
async function historyOf(entry, mirror, log) {
  const rev = entry.rev ?? 'HEAD';
  const cacheDir = process.env.CORPUS_HISTORY_CACHE;
  let cacheFile = null;
  if (cacheDir) {
    const sha = execFileSync('git', ['rev-parse', rev], { cwd: mirror, encoding: 'utf8' }).trim();
    cacheFile = path.join(cacheDir, `${entry.repo.replace('/', '+')}-${sha}.json`);
    if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8'));
  }
  const omitPaths = pathsWithMissingObjects(mirror, rev);
  if (omitPaths.length > 0) log(`  ${entry.repo}: ${omitPaths.length} paths left out (objects missing from the mirror)`);
  const { commits } = await readHistory(mirror, { rev, excludeFiles: DEFAULT_EXCLUDE_FILES, omitPaths });
  if (cacheFile) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cacheFile, JSON.stringify(commits));
  }
  return commits;
}

export function loadCorpusConfig() {
  return parse(readFileSync(CONFIG, 'utf8'));
}

/** Deterministic pseudo-random order (the same corpus every run). */
function shuffled(items, seed) {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function seedOf(text) {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/**
 * At most PER_CLASS_CAP assistant-made commits of a repository, shared out between its assistants
 * in turn (a random order within each), so that a repository's minority assistant (langfuse's
 * Cursor commits beside its Claude ones) keeps its commits when the cap bites.
 */
function capByAssistant(rows, seed) {
  if (rows.length <= PER_CLASS_CAP) return rows;
  const groups = new Map();
  for (const row of shuffled(rows, seed)) {
    if (!groups.has(row.assistant)) groups.set(row.assistant, []);
    groups.get(row.assistant).push(row);
  }
  const queues = [...groups.values()];
  const kept = [];
  for (let i = 0; kept.length < PER_CLASS_CAP; i++) {
    for (const queue of queues) if (i < queue.length && kept.length < PER_CLASS_CAP) kept.push(queue[i]);
  }
  return kept;
}

export async function buildCorpus({ log = console.log } = {}) {
  const config = loadCorpusConfig();
  const labelRules = loadLabelRules();
  const assistantNames = loadAssistantNames();
  const pluginRules = compileRules();
  // Automation accounts (the plugin's list: dependabot, release bots, …) are neither class.
  const isAutomation = (c) => pluginRules.automation.some((r) => r.pattern.test(c.authorName) || r.pattern.test(c.authorEmail));
  const rows = [];
  const eraCheck = [];
  const lineTruth = [];
  const eraCheckBefore = Date.parse(ERA_CHECK_BEFORE) / 1000;
  const repositories = [];
  const ruleCounts = {};
  let leftAfterStripping = 0;
  const leftByRule = {};
  for (const entry of config.repositories) {
    const mirror = mirrorOf(entry.repo);
    if (!existsSync(mirror)) {
      log(`  skipped ${entry.repo}: no mirror at ${mirror}`);
      continue;
    }
    const humanBefore = Date.parse(entry.human_before ?? '2021-01-01') / 1000;
    let commits;
    try {
      commits = await historyOf(entry, mirror, log);
    } catch (error) {
      log(`  skipped ${entry.repo}: ${error.message.slice(0, 200)}`);
      continue;
    }
    const labels = commits.map((c) => labelOf(c, labelRules, humanBefore, isAutomation));
    commits.forEach((c, i) => {
      if (labels[i] !== 'assistant') return;
      for (const id of labelRulesOf(c, labelRules)) ruleCounts[id] = (ruleCounts[id] ?? 0) + 1;
    });
    const stripped = commits.map((c) => ({ ...stripAttribution(c, labelRules), previousAuthorTime: null }));
    // As the git source links them: a cherry-picked copy takes its original's interval.
    linkAuthorIntervals(stripped, await copiedCommits(mirror, commits));
    for (const c of stripped) {
      const left = attributeCommit(c, pluginRules);
      if (left.length === 0) continue;
      leftAfterStripping++;
      for (const a of left) leftByRule[a.rule] = [...(leftByRule[a.rule] ?? []), a.quote].slice(0, 5);
    }
    const explicit = commits.map((c) => attributeCommit(c, pluginRules).length > 0);
    // message_tokens and code_tokens are stacked features: each fold computes them from `message`
    // and `code` (token-features.mjs), never from the shipped token models (they saw these commits).
    const features = extractFeatures(stripped, { messageTokens: () => 0 }).map((x) => x.subarray(0, -STACKED.length));
    const byClass = { assistant: [], human: [] };
    const check = [];
    // A history with line-level records (git-ai's notes): every commit is scored out of fold, never
    // trained on, for the lines' truth (notes-truth.mjs).
    const recordsLines = hasNotes(mirror);
    stripped.forEach((c, i) => {
      const label = labels[i];
      if (c.isMerge || c.isBoundary || c.additions + c.deletions === 0 || isImportedTree(c)) return;
      const message = [c.subject, c.body];
      if (recordsLines) lineTruth.push({ repo: entry.repo, hash: c.hash, message, features: Array.from(features[i], (v) => Math.round(v * 1e4) / 1e4) });
      if (!label) {
        const o = commits[i];
        if (o.authorTime >= humanBefore && o.authorTime < eraCheckBefore && labelOf(o, labelRules, eraCheckBefore, isAutomation) === 'human') {
          check.push({ repo: entry.repo, label: 'human', assistant: null, hash: c.hash, explicit: explicit[i], message, features: Array.from(features[i], (v) => Math.round(v * 1e4) / 1e4) });
        }
        return;
      }
      const assistant = label === 'assistant' ? assistantOf(commits[i], labelRules, assistantNames) : null;
      const origin = label === 'assistant' ? originOf(commits[i], labelRules) : null;
      byClass[label].push({ repo: entry.repo, label, assistant, origin, hash: c.hash, explicit: explicit[i], message, features: Array.from(features[i], (v) => Math.round(v * 1e4) / 1e4) });
    });
    const kept = [...capByAssistant(byClass.assistant, seedOf(`${entry.repo}assistant`)), ...shuffled(byClass.human, seedOf(`${entry.repo}human`)).slice(0, PER_CLASS_CAP)];
    const checked = shuffled(check, seedOf(`${entry.repo}check`)).slice(0, ERA_CHECK_CAP);
    const truth = lineTruth.filter((r) => r.repo === entry.repo);
    const code = await codeVectorsOf(entry, mirror, new Set([...kept, ...checked, ...truth].map((r) => r.hash)), log);
    for (const row of [...kept, ...checked, ...truth]) row.code = code.get(row.hash) ?? null;
    rows.push(...kept);
    eraCheck.push(...checked);
    const counts = { repo: entry.repo, commits: commits.length, assistant: byClass.assistant.length, human: byClass.human.length, kept_assistant: kept.filter((r) => r.label === 'assistant').length, kept_human: kept.filter((r) => r.label === 'human').length };
    repositories.push(counts);
    log(`  ${entry.repo}: ${commits.length} commits, assistant ${counts.assistant} (kept ${counts.kept_assistant}), human ${counts.human} (kept ${counts.kept_human})`);
  }
  return { features: [...FEATURE_NAMES], rows, eraCheck, lineTruth, repositories, ruleCounts, leftAfterStripping, leftByRule };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const corpus = await buildCorpus();
  const out = process.argv[2] ?? path.join(process.env.TMPDIR ?? '/tmp', 'cadence-corpus.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(corpus));
  console.log(`wrote ${corpus.rows.length} commits to ${out}; attribution left after stripping: ${corpus.leftAfterStripping}`);
}
