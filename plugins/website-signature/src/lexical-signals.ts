import { defineStrategy, type Finding, type WebsiteContext } from '@cadence-detect/plugin-sdk';
import { LEXICON } from './lexicon.js';
import { clamp01, countPhrase, locate, MIN_WORDS, perThousand, round, textViews } from './text-tools.js';

const MAX_FINDINGS = 8;
const CATEGORY = 'website-signature';

function tooShort(context: WebsiteContext): boolean {
  return context.document.words < MIN_WORDS;
}

/** Stock phrases per 1000 words from which they floor the page score. */
export const FLOOR_FROM_PER_1000 = 5;

/** The page score's floor at a stock-phrase density (per 1000 words): 0 below 5, 0.4 at 5, rising to 0.7 at 6. */
export function stockPhraseFloor(density: number): number {
  return density >= FLOOR_FROM_PER_1000 ? round(Math.min(0.7, 0.4 + 0.3 * (density - FLOOR_FROM_PER_1000))) : 0;
}

/** Phrases language models reach for ("delve into", "it's important to note", "in today's fast-paced world"). */
export const stockPhrases = defineStrategy({
  meta: {
    name: 'stock-phrases',
    category: CATEGORY,
    description: 'Overused stock phrases of generated text, per 1000 words.',
    appliesTo: 'website',
    weight: 0.9,
    messages: {
      stockPhrase:
        'stock phrase "{{phrase}}" ({{total}} stock phrases, {{density}} per 1000 words; 6 per 1000 scores 1)',
    },
  },
  analyze(context: WebsiteContext) {
    if (tooShort(context)) return { findings: [], score: 0 };
    const text = textViews(context.document).lower;
    const hits = LEXICON.stockPhrases
      .map((phrase) => ({ phrase, count: countPhrase(text, phrase) }))
      .filter((h) => h.count > 0);
    const total = hits.reduce((sum, h) => sum + h.count, 0);
    const density = perThousand(total, context.document.words);
    const score = clamp01(density / 6);
    const findings: Finding<'stockPhrase'>[] = hits
      .sort((a, b) => b.count - a.count)
      .slice(0, MAX_FINDINGS)
      .map((h) => ({
        score,
        messageId: 'stockPhrase' as const,
        data: { phrase: h.phrase, total, density: round(density) },
        element: locate(context.document, h.phrase),
      }));
    // Stock phrases stay a floor under the page score from 5 per 1000 words (0.4) up to 0.7 at 6. On
    // the development corpus 6 human pages and no machine page reach 3 per 1000, one human page 4,
    // none 5 (docs/website-analysis.md): a floor from 3 flagged human pages and no machine one.
    const floor = stockPhraseFloor(density);
    return {
      findings: score >= 0.2 ? findings : [],
      score: round(score),
      floor,
      metrics: { count: total, per_1000_words: round(density) },
    };
  },
});

/** Words whose frequency jumps in generated text ("tapestry", "seamless", "leverage", "realm"). */
export const aiVocabulary = defineStrategy({
  meta: {
    name: 'ai-vocabulary',
    category: CATEGORY,
    description: 'Density of vocabulary characteristic of language models.',
    appliesTo: 'website',
    weight: 0.7,
    messages: {
      word: '"{{word}}" ×{{count}} ({{total}} characteristic words, {{density}} per 1000; above 6 per 1000 counts)',
    },
  },
  analyze(context: WebsiteContext) {
    if (tooShort(context)) return { findings: [], score: 0 };
    const tokens = textViews(context.document).tokens;
    const counts = new Map<string, number>();
    for (const token of tokens) if (LEXICON.vocabulary.has(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const density = perThousand(total, tokens.length);
    // Human prose uses a few of these words too (about 2 to 6 per 1000): only the excess counts.
    const score = clamp01((density - 6) / 20);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
    const findings: Finding<'word'>[] =
      score >= 0.2
        ? top.map(([word, n]) => ({
            score,
            messageId: 'word' as const,
            data: { word, count: n, total, density: round(density) },
            element: locate(context.document, word),
          }))
        : [];
    return { findings, score: round(score), metrics: { count: total, per_1000_words: round(density) } };
  },
});

/** Sentences opening with "Moreover", "Furthermore", "Additionally", "Ultimately"… */
export const transitionDensity = defineStrategy({
  meta: {
    name: 'transition-density',
    category: CATEGORY,
    description: 'Share of sentences that open with a transition word.',
    appliesTo: 'website',
    weight: 0.6,
    messages: {
      transitions: '{{opening}} of {{sentences}} sentences open with a transition word ({{percent}}%; above 8% counts)',
    },
  },
  analyze(context: WebsiteContext) {
    const sentences = textViews(context.document).sentences;
    if (tooShort(context) || sentences.length < 5) return { findings: [], score: 0 };
    const opening = sentences.filter((s) => {
      const start = s.toLowerCase().replace(/^[^\p{L}]+/u, '');
      return LEXICON.transitions.some((t) => start.startsWith(`${t},`) || start.startsWith(`${t} `));
    });
    const share = opening.length / sentences.length;
    const score = clamp01((share - 0.08) / 0.17);
    const findings: Finding<'transitions'>[] =
      score >= 0.2
        ? opening.slice(0, MAX_FINDINGS).map((s) => ({
            score,
            messageId: 'transitions' as const,
            data: { opening: opening.length, sentences: sentences.length, percent: Math.round(share * 100) },
            element: locate(context.document, s.slice(0, 60)),
          }))
        : [];
    return { findings, score: round(score), metrics: { share: round(share) } };
  },
});

/** "As an AI language model", "lorem ipsum", "[Your Name]": text nobody meant to publish. */
export const placeholderText = defineStrategy({
  meta: {
    name: 'placeholder-text',
    category: CATEGORY,
    description: 'Boilerplate and placeholder text, and chat-assistant leftovers.',
    appliesTo: 'website',
    weight: 1,
    messages: { placeholder: 'placeholder or assistant text "{{text}}"' },
  },
  analyze(context: WebsiteContext) {
    const text = textViews(context.document).lower;
    const hits = LEXICON.placeholders.filter((p) => text.includes(p));
    if (hits.length === 0) return { findings: [], score: 0 };
    const assistant = hits.some((h) =>
      /ai|language model|knowledge|certainly|sure!|regenerate|browse|personal/.test(h),
    );
    const score = assistant ? 0.95 : 0.6;
    return {
      findings: hits.slice(0, MAX_FINDINGS).map((h) => ({
        score,
        messageId: 'placeholder' as const,
        data: { text: h },
        element: locate(context.document, h),
      })),
      score,
      // Text nobody meant to publish: chat-assistant leftovers floor the page at 0.85, lorem ipsum at 0.6.
      floor: assistant ? 0.85 : 0.6,
      metrics: { count: hits.length },
    };
  },
});
