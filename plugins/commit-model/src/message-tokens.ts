import { readFileSync } from 'node:fs';
import {
  addWordsAndPairs,
  decodeTokenModel,
  denseScore,
  feed,
  FNV_START,
  scaledParts,
  TOKEN_BITS,
  tokenBounds,
  type TokenModel,
  type TokenVector,
} from './hashed-tokens.js';
import { authoredBody } from './squash-list.js';

export const TOKEN_MODEL_FILE = new URL('../model/message-tokens.bin', import.meta.url);

/**
 * The message's tokens: its words and pairs of words (lower-cased), and the subject's character
 * 4-grams, in two parts each scaled to unit length, so a long body weighs no more than a subject.
 */
export function messageTokenVector(subject: string, body: string, bits = TOKEN_BITS): TokenVector {
  const mask = (1 << bits) - 1;
  const words = new Set<number>();
  const grams = new Set<number>();
  const message = `${subject}\n\n${body}`.trim().toLowerCase();
  addWordsAndPairs(words, WORDS, message, bounds(message), mask);
  const line = ` ${(subject.split('\n')[0] ?? '').toLowerCase()} `;
  for (let i = 0; i + 4 <= line.length; i++) grams.add((feed(GRAMS, line, i, i + 4) >>> 0) & mask);
  return scaledParts([words, grams]);
}

const WORDS = feed(FNV_START, 'm:');
const GRAMS = feed(FNV_START, 's:');
const scratch: number[] = [];
function bounds(text: string): number[] {
  tokenBounds(text, scratch);
  return scratch;
}

/** A commit's message as the model reads it: a squash's list of messages without GitHub's markers. */
export function commitMessageTokens(commit: { readonly subject: string; readonly body: string }): TokenVector {
  return messageTokenVector(commit.subject, authoredBody(commit.subject, commit.body));
}

/** A scorer of messages: the token model's linear score (its logit). */
export type TokenScorer = (subject: string, body: string) => number;

export function tokenScorer(model: TokenModel): TokenScorer {
  return (subject, body) => denseScore(model.weights, model.bias, messageTokenVector(subject, body, model.bits));
}

let shipped: TokenScorer | null = null;

/** The scorer of the message token model the plugin ships. */
export function shippedTokenScorer(): TokenScorer {
  shipped ??= tokenScorer(decodeTokenModel(readFileSync(TOKEN_MODEL_FILE)));
  return shipped;
}
