// Builds the page corpus: human pages from local mirrors (human-sources.yaml: repository, path, the
// version last committed before 2020), machine pages from machine/<brief>/*.md (the project's own,
// written from the briefs alone). Both go through render.mjs and the engine's own document parser;
// each page becomes the page model's feature vector plus the existing signals' scores.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseDocument } from '@cadence-detect/web-source';
import { PAGE_FEATURE_NAMES, pageFeatures, proseWords } from '@cadence-detect/plugin-website-signature/page-features';
import { renderPage } from './render.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const MIRRORS = process.env.CADENCE_MIRRORS ?? '/work/.mirror';
const CUTOFF = '2020-01-01';
const MIN_WORDS = 300;
const MAX_WORDS = 1500;

export function mirrorOf(repo) {
  return path.join(MIRRORS, repo.replace('/', '+'), 'repo');
}

/** The human pages' sources; none until the corpus config is written (issue 16). */
export function loadHumanSources() {
  const file = path.join(here, 'human-sources.yaml');
  return existsSync(file) ? parse(readFileSync(file, 'utf8')).pages ?? [] : [];
}

/** The page as it stood before the cut-off: its last version committed before 2020. */
function humanSource(entry) {
  const git = (args) => execFileSync('git', args, { cwd: mirrorOf(entry.repo), encoding: 'utf8', maxBuffer: 1 << 26 });
  const commit = git(['log', '-1', `--before=${CUTOFF}`, '--format=%H', entry.rev ?? 'HEAD', '--', entry.path]).trim();
  if (!commit) return null;
  return git(['show', `${commit}:${entry.path}`]);
}

export function machinePages() {
  const root = path.join(here, 'machine');
  const pages = [];
  if (!existsSync(root)) return pages;
  for (const brief of readdirSync(root)) {
    for (const file of readdirSync(path.join(root, brief)).filter((f) => f.endsWith('.md')).sort()) {
      const source = readFileSync(path.join(root, brief, file), 'utf8');
      const topic = /^topic:\s*(\S+)/m.exec(source)?.[1] ?? 'unknown';
      const writer = /^writer:\s*(\S+)/m.exec(source)?.[1] ?? `unnamed-${brief}`;
      pages.push({ id: `machine/${brief}/${file}`, label: 'machine', brief, topic, writer, source });
    }
  }
  return pages;
}

function toRow(page) {
  const html = renderPage(page.source);
  const document = parseDocument(html, { url: `https://corpus.invalid/${page.id}`, contentType: 'text/html' });
  if (document.words < MIN_WORDS * 0.8 || document.words > MAX_WORDS * 1.5) return null;
  return {
    id: page.id,
    label: page.label,
    brief: page.brief,
    topic: page.topic,
    writer: page.writer,
    words: document.words,
    markup: markupCounts(document),
    prose: proseWords(document),
    features: Array.from(pageFeatures(document), (v) => Math.round(v * 1e5) / 1e5),
    html,
  };
}

/**
 * Markup alone, per 1,000 words: what the check "markup separates no better than chance" reads.
 * Headings, list items, links, code blocks and table cells; not paragraphs, whose count per 1,000
 * words is the inverse of paragraph length, a property of the writing the signals are meant to read.
 */
function markupCounts(document) {
  const k = document.words / 1000;
  const tagged = (...tags) => document.blocks.filter((b) => tags.includes(b.tag)).length / k;
  return [document.headings.length / k, tagged('li'), document.links.length / k, tagged('pre'), tagged('td', 'th')];
}

export async function buildPages({ log = console.log } = {}) {
  const rows = [];
  let missing = 0;
  for (const entry of loadHumanSources()) {
    if (!existsSync(mirrorOf(entry.repo))) {
      missing++;
      continue;
    }
    let source;
    try {
      source = humanSource(entry);
    } catch {
      source = null;
    }
    if (!source) continue;
    const row = toRow({ id: `${entry.repo}/${entry.path}`, label: 'human', brief: entry.kind ?? 'human', topic: entry.topic, writer: entry.repo, source });
    if (row) rows.push(row);
  }
  for (const page of machinePages()) {
    const row = toRow(page);
    if (row) rows.push(row);
  }
  if (missing > 0) log(`  ${missing} human pages skipped: their mirrors are not here`);
  return { features: [...PAGE_FEATURE_NAMES], rows };
}
