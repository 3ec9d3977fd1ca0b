// Lexical diversity for the page model: MTLD, read over the writer's own vocabulary.
import type { TextViews } from './text-tools.js';

/**
 * The page's words that are the writer's vocabulary: those written in lower case somewhere on the
 * page, without digits. Names, products and version numbers ("Prometheus 2.0", "TSDB", "v16.4.2")
 * are left out: a release note full of them reads as varied vocabulary when it is not, and lexical
 * diversity over the vocabulary alone flagged fewer people's pages leaving their writer out
 * (docs/website-analysis.md).
 */
export function vocabularyTokens({ prose, tokens }: Pick<TextViews, 'prose' | 'tokens'>): string[] {
  const writtenLower = new Set(prose.match(/(?<![\p{L}\p{N}])\p{Ll}[\p{L}\p{N}'’-]*/gu) ?? []);
  return tokens.filter((token) => !/\p{N}/u.test(token) && writtenLower.has(token));
}

/**
 * MTLD (McCarthy and Jarvis, 2010): the mean length of word runs that keep a type-token ratio above
 * 0.72, averaged forwards and backwards. Unlike a plain type-token ratio it does not fall with length.
 */
export function mtld(tokens: readonly string[], threshold = 0.72): number {
  if (tokens.length < 10) return 0;
  const pass = (list: readonly string[]): number => {
    let factors = 0;
    let types = new Set<string>();
    let length = 0;
    for (const token of list) {
      types.add(token);
      length++;
      if (types.size / length <= threshold) {
        factors++;
        types = new Set();
        length = 0;
      }
    }
    if (length > 0) factors += (1 - types.size / length) / (1 - threshold);
    return factors > 0 ? list.length / factors : list.length;
  };
  return (pass(tokens) + pass([...tokens].reverse())) / 2;
}
