/** Words that end in a period without ending a sentence. */
const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|sr|jr|st|no|fig|inc|ltd|co|approx|cf)\.$/i;

/** Splits prose into sentences: ., ! or ? followed by space and a capital, a digit or a quote. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const pattern = /[.!?]+["')\]]*\s+(?=["'(\[]?[A-Z0-9])/g;
  let start = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    const candidate = text.slice(start, end).trim();
    if (ABBREVIATIONS.test(candidate) || /\b[A-Z]\.$/.test(candidate)) continue;
    if (candidate) sentences.push(candidate);
    start = match.index + match[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

export function countWords(text: string): number {
  const matches = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu);
  return matches ? matches.length : 0;
}
