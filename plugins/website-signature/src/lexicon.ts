import { readFileSync } from 'node:fs';

/** Word lists are data (plugins/website-signature/data), not code: edit them without touching a strategy. */
function list(name: string): readonly string[] {
  const file = new URL(`../data/${name}.json`, import.meta.url);
  return Object.freeze((JSON.parse(readFileSync(file, 'utf8')) as string[]).map((entry) => entry.toLowerCase()));
}

export const LEXICON = Object.freeze({
  stockPhrases: list('stock-phrases'),
  vocabulary: new Set(list('vocabulary')),
  transitions: list('transitions'),
  hedges: list('hedges'),
  absolutes: new Set(list('absolutes')),
  placeholders: list('placeholders'),
  genericLinks: new Set(list('generic-links')),
});
