import type { PageDocument } from '@cadence-detect/plugin-sdk';

/** Below this many words a page is too short to judge (docs/scoring.md). */
export const MIN_WORDS = 80;
const MAX_EXCERPT = 160;

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

export function normalizeQuotes(text: string): string {
  return text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Occurrences of a lower-case phrase on word boundaries in lower-case text. An indexOf scan: one
 * regular expression per phrase over a multi-megabyte page costs several times the parse itself.
 */
export function countPhrase(lowerText: string, phrase: string): number {
  const checkStart = WORD_CHAR.test(phrase[0] ?? '');
  const checkEnd = WORD_CHAR.test(phrase[phrase.length - 1] ?? '');
  let count = 0;
  for (let at = lowerText.indexOf(phrase); at >= 0; at = lowerText.indexOf(phrase, at + phrase.length)) {
    if (checkStart && at > 0 && WORD_CHAR.test(lowerText.charAt(at - 1))) continue;
    const after = lowerText[at + phrase.length];
    if (checkEnd && after !== undefined && WORD_CHAR.test(after)) continue;
    count++;
  }
  return count;
}

export interface TextViews {
  readonly prose: string;
  readonly lower: string;
  readonly tokens: readonly string[];
  readonly sentences: readonly string[];
}

/**
 * Signals read at most this much of a page, taken evenly from its whole length: rates and shares
 * are as well measured on 50,000 words as on a million, and a huge page then costs little more
 * than parsing it.
 */
export const SAMPLE_WORDS = 50_000;
const SAMPLE_SENTENCES = 4_000;

export function sampleEvenly<T>(items: readonly T[], max: number): readonly T[] {
  if (items.length <= max) return items;
  const step = items.length / max;
  return Array.from({ length: max }, (_, i) => Math.floor(i * step)).flatMap((at) => items.slice(at, at + 1));
}

const caches = new Map<number, WeakMap<PageDocument, TextViews>>();

/**
 * The page's text in the forms the signals read, computed once per page and sample size and shared
 * by all of them: the whole text up to `sampleWords`, else an even sample of its blocks (and of its
 * sentences, at most `sampleSentences`).
 */
export function textViews(
  document: PageDocument,
  sampleWords = SAMPLE_WORDS,
  sampleSentences = SAMPLE_SENTENCES,
): TextViews {
  let views = caches.get(sampleWords);
  if (!views) caches.set(sampleWords, (views = new WeakMap()));
  let cached = views.get(document);
  if (!cached) {
    const source =
      document.words <= sampleWords
        ? document.text
        : sampleEvenly(
            document.blocks,
            Math.max(1, Math.floor((document.blocks.length * sampleWords) / document.words)),
          )
            .map((b) => b.text)
            .join('\n\n');
    const text = normalizeQuotes(source);
    const lower = text.toLowerCase();
    cached = {
      prose: text,
      lower,
      tokens: lower.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [],
      sentences: sampleEvenly(document.sentences, sampleSentences),
    };
    views.set(document, cached);
  }
  return cached;
}

/** `path: "…excerpt…"` of the first block that contains `needle`: what a detection points at. */
export function locate(document: PageDocument, needle: string): string {
  const lower = needle.toLowerCase();
  for (const block of document.blocks) {
    const text = normalizeQuotes(block.text);
    const at = text.toLowerCase().indexOf(lower);
    if (at >= 0) return `${block.path}: "${excerpt(text, at, needle.length)}"`;
  }
  return `page: "${needle}"`;
}

export function excerpt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 50);
  const end = Math.min(text.length, at + length + 60);
  const cut = text.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${cut.slice(0, MAX_EXCERPT)}${end < text.length ? '…' : ''}`;
}

export function perThousand(count: number, total: number): number {
  return total > 0 ? (count * 1000) / total : 0;
}

export function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function prose(document: PageDocument): string {
  return textViews(document).prose;
}
