import { readFileSync } from 'node:fs';

const LISTS = [
  'stock-phrases',
  'vocabulary',
  'transitions',
  'hedges',
  'absolutes',
  'placeholders',
  'generic-links',
] as const;
const fileOf = (name: (typeof LISTS)[number]): URL => new URL(`../data/${name}.json`, import.meta.url);
export const LEXICON_FILES: readonly URL[] = LISTS.map(fileOf);

/** Word lists are data (plugins/website-signature/data), not code: edit them without touching a strategy. */
function list(name: (typeof LISTS)[number]): readonly string[] {
  const file = fileOf(name);
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
