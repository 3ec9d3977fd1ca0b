import { defineStrategy, type Finding, type WebsiteContext } from '@cadence-detect/plugin-sdk';
import { LEXICON } from './lexicon.js';
import { clamp01, countPhrase, locate, MIN_WORDS, perThousand, round, textViews, words } from './text-tools.js';

const CATEGORY = 'website-signature';
/** Openings too common in any English prose to mean anything. */
const COMMON_OPENINGS = new Set(['the', 'a', 'an', 'i', 'it', 'in', 'this', 'we', 'you', 'if', 'and', 'but']);

/** Generated prose keeps its sentences at a similar length; people write short and long ones. */
export const sentenceUniformity = defineStrategy({
  meta: {
    name: 'sentence-uniformity',
    category: CATEGORY,
    description: 'Low variation of sentence length (coefficient of variation).',
    appliesTo: 'website',
    weight: 0.6,
    messages: {
      uniform:
        'sentence lengths vary little: coefficient of variation {{variation}} over {{sentences}} sentences (mean {{mean}} words; below 0.6 counts)',
    },
  },
  analyze(context: WebsiteContext) {
    const lengths = textViews(context.document)
      .sentences.map((s) => words(s).length)
      .filter((n) => n >= 3);
    if (context.document.words < MIN_WORDS || lengths.length < 8) return { findings: [], score: 0 };
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const sd = Math.sqrt(lengths.reduce((a, b) => a + (b - mean) ** 2, 0) / lengths.length);
    const cv = mean > 0 ? sd / mean : 0;
    // People's sentences vary (cv usually 0.5 to 0.8); generated text often stays under 0.4.
    const score = clamp01((0.6 - cv) / 0.35);
    const findings: Finding<'uniform'>[] =
      score >= 0.3
        ? [
            {
              score,
              messageId: 'uniform',
              data: { variation: round(cv), sentences: lengths.length, mean: round(mean) },
              element: `page: ${lengths.length} sentences`,
            },
          ]
        : [];
    return { findings, score: round(score), metrics: { cv: round(cv), mean_words: round(mean) } };
  },
});

/** The same opening word again and again ("By…", "Whether…", "This…"). */
export const repetitiveOpenings = defineStrategy({
  meta: {
    name: 'repetitive-openings',
    category: CATEGORY,
    description: 'Repetition of sentence openings.',
    appliesTo: 'website',
    weight: 0.5,
    messages: {
      openings: '{{count}} of {{sentences}} sentences open with "{{word}}" ({{percent}}%; above 12% counts)',
    },
  },
  analyze(context: WebsiteContext) {
    const openings = textViews(context.document)
      .sentences.map((s) => words(s)[0])
      .filter((w): w is string => w !== undefined);
    if (context.document.words < MIN_WORDS || openings.length < 8) return { findings: [], score: 0 };
    const counts = new Map<string, number>();
    for (const word of openings) if (!COMMON_OPENINGS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    const [word, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    const share = count / openings.length;
    const score = clamp01((share - 0.12) / 0.25);
    const findings: Finding<'openings'>[] =
      score >= 0.2
        ? [
            {
              score,
              messageId: 'openings' as const,
              data: { count, sentences: openings.length, word, percent: Math.round(share * 100) },
              element: locate(context.document, word),
            },
          ]
        : [];
    return { findings, score: round(score), metrics: { top_opening_share: round(share) } };
  },
});

/** Sweeping claims ("always", "ensure", "essential", "the best") with no "I think" or "probably". */
export const unhedgedClaims = defineStrategy({
  meta: {
    name: 'unhedged-claims',
    category: CATEGORY,
    description: 'Absolute claims without hedging.',
    appliesTo: 'website',
    weight: 0.4,
    messages: { absolutes: '{{absolutes}} absolute words per 1000 against {{hedges}} hedges per 1000' },
  },
  analyze(context: WebsiteContext) {
    if (context.document.words < MIN_WORDS) return { findings: [], score: 0 };
    const { lower: text, tokens } = textViews(context.document);
    const absolutes = tokens.filter((t) => LEXICON.absolutes.has(t)).length;
    const hedges = LEXICON.hedges.reduce((sum, h) => sum + countPhrase(text, h), 0);
    const absoluteDensity = perThousand(absolutes, tokens.length);
    const hedgeDensity = perThousand(hedges, tokens.length);
    const score = clamp01((absoluteDensity - 2 * hedgeDensity - 8) / 20);
    const findings: Finding<'absolutes'>[] =
      score >= 0.2
        ? [
            {
              score,
              messageId: 'absolutes',
              data: { absolutes: round(absoluteDensity), hedges: round(hedgeDensity) },
              element: 'page',
            },
          ]
        : [];
    return {
      findings,
      score: round(score),
      metrics: { absolutes_per_1000: round(absoluteDensity), hedges_per_1000: round(hedgeDensity) },
    };
  },
});
