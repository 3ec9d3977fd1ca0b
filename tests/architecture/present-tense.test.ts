import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFilesUnder } from './source-files.js';

/**
 * The code and the docs describe the product as it is, for readers who never saw how it came to
 * be: no internal issue numbers, no "as before" or "the former" narrating a change. Measured
 * before/after figures and changelogs (`.changeset/`, CHANGELOG.md) are history by design and are
 * not read here.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HISTORY_TELLING = /\bissues? \d+\b|\bas before\b|\bthe former\b/gi;

/** What in `text` tells history, each with its line number. */
export function historyTelling(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(HISTORY_TELLING)) found.push(`line ${index + 1}: ${match[0]}`);
  });
  return found;
}

function readersFiles(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(ROOT, 'docs', name));
  const sources = ['packages', 'plugins']
    .flatMap((top) => readdirSync(path.join(ROOT, top)).map((name) => path.join(ROOT, top, name, 'src')))
    .concat(path.join(ROOT, 'host', 'src'))
    .flatMap((dir) => sourceFilesUnder(dir));
  return [path.join(ROOT, 'README.md'), ...docs, ...sources];
}

describe('architecture: the code and the docs tell what is, not how it came to be', () => {
  it('finds the wording it looks for (the check can fail)', () => {
    expect(
      historyTelling('Fixed in issue 19.\nIt works as before.\nThe former rule\nread before the commit'),
    ).to.deep.equal(['line 1: issue 19', 'line 2: as before', 'line 3: The former']);
  });

  it('no README, docs page or source file names an internal issue or narrates a change', () => {
    const files = readersFiles();
    expect(files.length).to.be.above(100);
    const found = files.flatMap((file) =>
      historyTelling(readFileSync(file, 'utf8')).map((hit) => `${path.relative(ROOT, file)} ${hit}`),
    );
    expect(found).to.deep.equal([]);
  });
});
