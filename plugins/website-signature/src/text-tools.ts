import type { PageDocument } from '@cadence/plugin-sdk';

/** Below this many words a page is too short to judge (decisions §4). */
export const MIN_WORDS = 80;
const MAX_EXCERPT = 160;

export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

export function normalizeQuotes(text: string): string {
  return text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"');
}

/** Occurrences of a phrase on word boundaries, case-insensitive. */
export function countPhrase(haystack: string, phrase: string): number {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const startBoundary = /^[\p{L}\p{N}]/u.test(phrase) ? '(?<![\\p{L}\\p{N}])' : '';
  const endBoundary = /[\p{L}\p{N}]$/u.test(phrase) ? '(?![\\p{L}\\p{N}])' : '';
  return haystack.match(new RegExp(`${startBoundary}${escaped}${endBoundary}`, 'giu'))?.length ?? 0;
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
  return normalizeQuotes(document.text);
}
