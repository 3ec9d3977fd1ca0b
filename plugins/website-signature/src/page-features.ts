import type { PageDocument } from '@cadence-detect/plugin-sdk';
import { compressionGain } from './compression.js';
import { LEXICON } from './lexicon.js';
import { mtld, vocabularyTokens } from './lexical-diversity.js';
import { countPhrase, sampleEvenly, textViews } from './text-tools.js';

export { mtld } from './lexical-diversity.js';

/**
 * The page model reads at most this much of a page, evenly sampled: its development pages have at
 * most 1,500 words, and a 5 MB page must cost little more than parsing it.
 */
const FEATURE_SAMPLE_WORDS = 15_000;
const FEATURE_SAMPLE_SENTENCES = 1_200;

/** At most this many list items and paragraphs are read for their shapes (an even sample). */
const SAMPLE_ITEMS = 1_500;

/**
 * Measurements of a page's prose for the page model: punctuation, address, templates,
 * rhythm, vocabulary, headings and specificity. Each is a rate or a ratio, so that a page's
 * length alone says nothing; `PAGE_FEATURE_NAMES` fixes their order in the vector.
 */
export const PAGE_FEATURE_NAMES = [
  'em_dashes_per_sentence',
  'colons_per_sentence',
  'semicolons_per_sentence',
  'parentheses_per_sentence',
  'term_explanation_items',
  'second_person_rate',
  'reader_openers',
  'contrast_templates',
  'triads_per_sentence',
  'sentence_length_cv',
  'paragraph_length_cv',
  'mean_sentence_length',
  'lexical_diversity_mtld',
  'function_word_rate',
  'first_person_rate',
  'contraction_rate',
  'title_case_headings',
  'colon_titles',
  'numbers_per_k',
  'proper_nouns_per_k',
  'code_per_k',
  'exclamations_per_sentence',
  'questions_per_sentence',
  'stock_phrases_per_k',
  'ai_vocabulary_per_k',
  'transition_openers',
  'hedges_per_k',
  'compression_gain',
  'latin_abbreviations_per_k',
  'unterminated_sentences',
  'imperative_openers',
  'intensifiers_per_k',
  'will_per_k',
] as const;

export type PageFeatureName = (typeof PAGE_FEATURE_NAMES)[number];

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const FUNCTION_WORDS = new Set([
  'the',
  'of',
  'and',
  'to',
  'a',
  'in',
  'that',
  'it',
  'is',
  'was',
  'for',
  'on',
  'with',
  'as',
  'this',
  'but',
  'be',
  'at',
  'by',
  'not',
  'or',
  'from',
  'so',
  'if',
]);
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', "i'm", "i've", "i'd", "i'll", 'we', 'our', 'us']);
const SECOND_PERSON = new Set(['you', 'your', 'yours', "you're", "you've", "you'll", "you'd", 'yourself']);
const READER_OPENER =
  /^(?:imagine|picture this|if you(?:'ve| have)? ever|here's|here is|let's|let us|ready to|whether you're|have you ever|think about)\b/i;
const CONTRAST =
  /\bnot (?:just|only|merely) [^.!?]{1,60}?\b(?:but|—)|\b[\p{L}]+(?:'s| is| are) not (?:about |just |only )?[^.!?]{1,50}?[,;—-] (?:it|this|that|they)(?:'s| is| are)\b|\bisn't just\b|\bmore than just\b|\brather than simply\b/giu;
const TRIAD = /\b[\p{L}-]+(?: [\p{L}-]+)?, [\p{L}-]+(?: [\p{L}-]+)?,? (?:and|or) [\p{L}-]+/gu;
const TERM_EXPLANATION = /^(?:\*\*)?[A-Z][\p{L}\p{N} /&+.-]{1,40}(?:\*\*)?:\s+\S/u;
const CONTRACTION = /\b\p{L}+(?:n't|'re|'ve|'ll|'d|'m|'s)\b/giu;
const NUMBER = /\b\d[\d,.]*%?\b/g;
// Documentation's tells: people abbreviate (e.g., i.e., etc.) where model prose writes
// "for example"; they leave list items and fragments without a full stop; they soften with "just",
// "simply", "really"; model-written how-tos open more of their sentences with an instruction.
const LATIN_ABBREVIATION = /(?<![\p{L}.])(?:e\.g\.|i\.e\.|etc\.|vs\.|cf\.|a\.k\.a\.)/giu;
const TERMINATED = /[.!?:)"”'’]$/u;
const INTENSIFIER = /\b(?:just|simply|easily|basically|actually|really|pretty|quite|obviously|of course)\b/giu;
// People's documentation and announcements say what will happen ("this will install", "we will
// release"); model prose keeps to the present ("the command installs").
const WILL = /\bwill\b/giu;
const IMPERATIVE_VERBS = new Set([
  'add',
  'run',
  'create',
  'open',
  'use',
  'install',
  'set',
  'make',
  'check',
  'start',
  'edit',
  'update',
  'replace',
  'remove',
  'go',
  'put',
  'pass',
  'call',
  'read',
  'see',
  'note',
  'keep',
  'leave',
  'move',
  'choose',
  'configure',
  'deploy',
  'apply',
  'review',
  'close',
  'follow',
  'try',
  'change',
  'define',
  'import',
  'enable',
  'write',
  'type',
  'click',
  'navigate',
  'let',
  'consider',
]);
const SMALL_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'in',
  'on',
  'to',
  'for',
  'with',
  'at',
  'by',
  'vs',
  'is',
  'as',
  'from',
  'into',
]);

/**
 * The page model reads prose: a page with fewer words than this in its paragraphs (a changelog of
 * bullet points, a table of options) is outside what it was validated on, and it says so instead
 * of scoring the page (on the development corpus, two release-note pages of bullets alone scored
 * 0.99 before this rule).
 */
export const MIN_PROSE_WORDS = 150;

const PROSE_WORD = /[\p{L}\p{N}]+/gu;

/** Words in the page's paragraphs (not list items, headings, tables or code). */
export function proseWords(document: PageDocument): number {
  let words = 0;
  for (const block of document.blocks) {
    if (block.tag !== 'p') continue;
    words += block.text.match(PROSE_WORD)?.length ?? 0;
    if (words >= MIN_PROSE_WORDS) return words;
  }
  return words;
}

const measured = new WeakMap<PageDocument, Float64Array>();

/**
 * The page's feature vector (PAGE_FEATURE_NAMES order). The page model and each of its signal
 * strategies read it, so it is measured once per document (a 5 MB page must not be read eleven times).
 */
export function pageFeatures(document: PageDocument): Float64Array {
  let features = measured.get(document);
  if (!features) measured.set(document, (features = measure(document)));
  return features;
}

// eslint-disable-next-line max-lines-per-function -- one line per feature in PAGE_FEATURE_NAMES order, read against that list slot by slot
function measure(document: PageDocument): Float64Array {
  // The signals' shared views: on a page over SAMPLE_WORDS, an even sample of its blocks and
  // sentences (rates are as well measured on 50,000 words as on a million).
  const views = textViews(document, FEATURE_SAMPLE_WORDS, FEATURE_SAMPLE_SENTENCES);
  const sampled = document.words > FEATURE_SAMPLE_WORDS;
  const all = views.sentences.length > 0 ? views.sentences : [document.text];
  // A "sentence" that is code inline in a paragraph (a call, an object literal) is not prose: its
  // colons, semicolons and brackets would read as punctuation. The sentence measurements leave it out.
  // On a sampled page the sentences are not the text's sample, so only the sentence measurements
  // leave them out there.
  const inlineCode = all.filter(isCodeLike);
  const sentences = inlineCode.length < all.length ? all.filter((s) => !isCodeLike(s)) : all;
  const text = inlineCode.length < all.length && !sampled ? withoutSentences(views.prose, inlineCode) : views.prose;
  const lower = views.lower;
  const tokens = views.tokens;
  const kText = Math.max(tokens.length, 1) / 1000;
  const prose = document.blocks.filter((b) => b.tag === 'p' || b.tag === 'li' || b.tag === 'blockquote');
  const items = sampleEvenly(
    document.lists.flatMap((l) => l.items),
    SAMPLE_ITEMS,
  );
  const sentenceLengths = sentences.map((s) => (s.match(WORD) ?? []).length).filter((l) => l > 0);
  // Per-sentence rates divide counts in the text by its sentences: on a sampled page, the page's
  // sentences in proportion to the share of its words the sample holds.
  const n = Math.max(
    sampled ? (document.sentences.length * tokens.length) / Math.max(document.words, 1) : sentences.length,
    1,
  );
  const paragraphLengths = sampleEvenly(
    prose.filter((b) => b.tag === 'p'),
    SAMPLE_ITEMS,
  )
    .map((b) => (b.text.match(WORD) ?? []).length)
    .filter((l) => l > 0);
  const headings = document.headings.filter((h) => h.level > 1 || document.headings.length === 1);
  const code = document.blocks.filter((b) => b.tag === 'pre' || b.tag === 'code').length;
  // Links and code blocks are counted on the whole page, so per the whole page's words.
  const kPage = sampled ? Math.max(document.words, 1) / 1000 : kText;
  const sentenceWords =
    Math.max(
      sentenceLengths.reduce((a, b) => a + b, 0),
      1,
    ) / 1000;
  return Float64Array.of(
    /* em_dashes_per_sentence */ count(text, /—|\s--\s/g) / n,
    /* colons_per_sentence */ count(text, /:(?=\s)/g) / n,
    /* semicolons_per_sentence */ count(text, /(?<=[\p{L}\p{N}])[;](?=\s+[\p{L}])/gu) / n,
    /* parentheses_per_sentence */ count(text, /\(/g) / n,
    /* term_explanation_items */ items.length > 0
      ? items.filter((i) => TERM_EXPLANATION.test(i)).length / items.length
      : 0,
    /* second_person_rate */ share(tokens, SECOND_PERSON),
    /* reader_openers */ sentences.filter((s) => READER_OPENER.test(s.trim())).length / n,
    /* contrast_templates */ count(text, CONTRAST) / n,
    /* triads_per_sentence */ count(text, TRIAD) / n,
    /* sentence_length_cv */ coefficientOfVariation(sentenceLengths),
    /* paragraph_length_cv */ coefficientOfVariation(paragraphLengths),
    /* mean_sentence_length */ mean(sentenceLengths),
    /* lexical_diversity_mtld */ mtld(vocabularyTokens(views)),
    /* function_word_rate */ share(tokens, FUNCTION_WORDS),
    /* first_person_rate */ share(tokens, FIRST_PERSON),
    /* contraction_rate */ count(text, CONTRACTION) / Math.max(tokens.length, 1),
    /* title_case_headings */ headings.length > 0
      ? headings.filter((h) => isTitleCase(h.text)).length / headings.length
      : 0,
    /* colon_titles */ headings.length > 0
      ? headings.filter((h) => /^[^:]{2,60}: \S/.test(h.text)).length / headings.length
      : 0,
    /* numbers_per_k */ count(text, NUMBER) / kText,
    /* proper_nouns_per_k */ properNouns(sentences) / (sampled ? sentenceWords : kText),
    /* code_per_k */ code / kPage,
    /* exclamations_per_sentence */ count(text, /!/g) / n,
    /* questions_per_sentence */ count(text, /\?/g) / n,
    /* stock_phrases_per_k */ LEXICON.stockPhrases.reduce((sum, phrase) => sum + countPhrase(lower, phrase), 0) / kText,
    /* ai_vocabulary_per_k */ tokens.filter((t) => LEXICON.vocabulary.has(t)).length / kText,
    /* transition_openers */ sentences.filter((s) => opensWithTransition(s)).length / n,
    /* hedges_per_k */ LEXICON.hedges.reduce((sum, phrase) => sum + countPhrase(lower, phrase), 0) / kText,
    /* compression_gain */ compressionGain(text),
    /* latin_abbreviations_per_k */ count(text, LATIN_ABBREVIATION) / kText,
    /* unterminated_sentences */ sentences.filter((s) => s.trim() && !TERMINATED.test(s.trim())).length /
      sentences.length,
    /* imperative_openers */ sentences.filter((s) =>
      IMPERATIVE_VERBS.has((s.trim().split(/\s+/)[0] ?? '').toLowerCase()),
    ).length / sentences.length,
    /* intensifiers_per_k */ count(text, INTENSIFIER) / kText,
    /* will_per_k */ count(text, WILL) / kText,
  );
}

const CODE_CHARACTER = /[{}()[\];=<>"`|$]/g;
const CODE_SHAPE = /\)\s*;|=>|\w\([^()\s]*\)\.\w|^\s*[{[]|\w+\s*:\s*["[{<]/;

/** A sentence that reads as code: code's characters are over a tenth of it, or it has code's shapes. */
export function isCodeLike(sentence: string): boolean {
  const length = sentence.replace(/\s+/g, '').length;
  if (length === 0) return false;
  return (sentence.match(CODE_CHARACTER)?.length ?? 0) / length > 0.1 || CODE_SHAPE.test(sentence);
}

/**
 * The text without the given sentences, which occur in it in order: one pass, each found from where
 * the last one ended. A sentence with curly quotes is not in the text (its quotes are normalized)
 * and is not looked for.
 */
function withoutSentences(text: string, remove: readonly string[]): string {
  let out = '';
  let cursor = 0;
  for (const sentence of remove) {
    if (/[’‘“”]/.test(sentence)) continue;
    const at = text.indexOf(sentence, cursor);
    if (at < 0) continue;
    out += `${text.slice(cursor, at)} `;
    cursor = at + sentence.length;
  }
  return out + text.slice(cursor);
}

function opensWithTransition(sentence: string): boolean {
  const start = sentence.toLowerCase().replace(/^[^\p{L}]+/u, '');
  return LEXICON.transitions.some((t) => start.startsWith(`${t},`) || start.startsWith(`${t} `));
}

function count(text: string, pattern: RegExp): number {
  return (text.match(pattern) ?? []).length;
}

function share(tokens: readonly string[], set: ReadonlySet<string>): number {
  if (tokens.length === 0) return 0;
  let hits = 0;
  for (const t of tokens) if (set.has(t)) hits++;
  return hits / tokens.length;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Standard deviation over mean: how much lengths vary (burstiness). 0 for fewer than two values. */
export function coefficientOfVariation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  if (m === 0) return 0;
  const variance = values.reduce((s, v) => s + (v - m) ** 2, 0) / values.length;
  return Math.sqrt(variance) / m;
}

function isTitleCase(heading: string): boolean {
  const words = heading.split(/\s+/).filter((w) => /^\p{L}/u.test(w));
  if (words.length < 3) return false;
  const significant = words.slice(1).filter((w) => !SMALL_WORDS.has(w.toLowerCase()));
  return significant.length > 0 && significant.every((w) => /^\p{Lu}/u.test(w));
}

/** Capitalized words that do not open a sentence: names, products, places. */
function properNouns(sentences: readonly string[]): number {
  let total = 0;
  for (const sentence of sentences) {
    const words = sentence.trim().split(/\s+/).slice(1);
    for (const w of words) if (/^\p{Lu}[\p{Ll}\p{N}]/u.test(w)) total++;
  }
  return total;
}
