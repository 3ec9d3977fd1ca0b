import { defineStrategy, type WebsiteContext } from '@cadence-detect/plugin-sdk';
import { clamp01, MIN_WORDS, round, textViews } from './text-tools.js';

const CONTRACTION = /\b[\p{L}]+'(s|t|re|ve|ll|d|m)\b/giu;
const FIRST_PERSON = new Set(['i', "i'm", "i've", "i'd", "i'll", 'my', 'me', 'mine', 'myself']);

/**
 * Evidence the other way: contractions, a first-person narrator, concrete specifics (numbers,
 * dates, versions), asides in parentheses, questions. Its score lowers the page's overall score
 * (website-signature's refine step); it makes no detections itself.
 */
export const humanVoice = defineStrategy({
  meta: {
    name: 'human-voice',
    category: 'website-signature',
    description: 'Signals of human writing (contractions, first person, specifics); lowers the page score.',
    appliesTo: 'website',
    weight: 0,
  },
  analyze(context: WebsiteContext) {
    if (context.document.words < MIN_WORDS) return { findings: [], score: 0 };
    const { prose: text, tokens } = textViews(context.document);
    const per100 = (n: number): number => (n * 100) / Math.max(tokens.length, 1);
    const contractions = per100(text.match(CONTRACTION)?.length ?? 0);
    const firstPerson = per100(tokens.filter((t) => FIRST_PERSON.has(t)).length);
    const specifics = per100(text.match(/\b\d[\d.,:/-]*\b/g)?.length ?? 0);
    const asides = per100((text.match(/\([^)]{3,}\)/g)?.length ?? 0) + (text.match(/\?/g)?.length ?? 0));
    const score = clamp01(
      0.35 * clamp01(contractions / 2.5) +
        0.35 * clamp01(firstPerson / 2.5) +
        0.15 * clamp01(specifics / 2) +
        0.15 * clamp01(asides / 1),
    );
    return {
      findings: [],
      score: round(score),
      metrics: {
        contractions_per_100: round(contractions),
        first_person_per_100: round(firstPerson),
        specifics_per_100: round(specifics),
      },
    };
  },
});

/** The one detection a too-short page gets (docs/scoring.md). */
export const textLength = defineStrategy({
  meta: {
    name: 'text-length',
    category: 'website-signature',
    description: 'Says when a page has too little text to judge.',
    appliesTo: 'website',
    weight: 0.1,
    messages: {
      tooShort: 'the page has {{words}} words, too little text to judge (at least {{needed}} needed): low confidence',
    },
  },
  analyze(context: WebsiteContext) {
    const n = context.document.words;
    if (n >= MIN_WORDS) return { findings: [], score: 0, metrics: { words: n } };
    return {
      findings: [
        {
          score: 0.05,
          messageId: 'tooShort',
          data: { words: n, needed: MIN_WORDS },
          element: 'page',
        },
      ],
      score: 0.05,
      metrics: { words: n },
    };
  },
});
