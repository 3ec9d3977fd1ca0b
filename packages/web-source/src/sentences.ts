import { itemAt } from '@cadence-detect/errors';

/** Words that end in a period without ending a sentence. */
const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|sr|jr|st|no|fig|inc|ltd|co|approx|cf)\.$/i;

/** Enough of a sentence's end for the longest abbreviation ("approx.") with the character before it. */
const ABBREVIATION_TAIL = 12;
const INITIAL = /\b[A-Z]\.$/;

/** Splits prose into sentences: ., ! or ? followed by space and a capital, a digit or a quote. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  forEachSentence(text, (start, end) => sentences.push(text.slice(start, end)));
  return sentences;
}

/** The sentences of splitSentences as [start, end) offsets into the text, trimmed, in order. */
export function forEachSentence(text: string, onSentence: (start: number, end: number) => void): void {
  const pattern = /[.!?]+["')\]]*\s+(?=["'([]?[A-Z0-9])/g;
  let start = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    // Only the sentence's last characters can hold an abbreviation: testing the whole candidate would
    // cost every sentence a scan of its own length again.
    const tail = text.slice(Math.max(start, end - ABBREVIATION_TAIL), end);
    if (ABBREVIATIONS.test(tail) || INITIAL.test(tail)) continue;
    emitTrimmed(text, start, end, onSentence);
    start = match.index + match[0].length;
  }
  emitTrimmed(text, start, text.length, onSentence);
}

const SPACE = /\s/;

function emitTrimmed(text: string, start: number, end: number, onSentence: (start: number, end: number) => void): void {
  while (start < end && SPACE.test(itemAt(text, start))) start++;
  while (end > start && SPACE.test(itemAt(text, end - 1))) end--;
  if (end > start) onSentence(start, end);
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Words: runs that start with a letter or digit. A character loop with an ASCII fast path; a Unicode
 * regular expression over a multi-megabyte page costs more than parsing it.
 */
export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let wordChar: boolean;
    if (code < 128) {
      wordChar =
        (code >= 48 && code <= 57) ||
        (code >= 65 && code <= 90) ||
        (code >= 97 && code <= 122) ||
        (inWord && (code === 39 || code === 45));
    } else {
      wordChar = code === 0x2019 ? inWord : LETTER_OR_DIGIT.test(itemAt(text, i));
    }
    if (wordChar && !inWord) count++;
    inWord = wordChar;
  }
  return count;
}
