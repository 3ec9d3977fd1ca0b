import { readFileSync } from 'node:fs';
import {
  decodeTokenModel,
  denseScore,
  scaledParts,
  slotOf,
  TOKEN_BITS,
  WORD,
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
  const tokens = `${subject}\n\n${body}`.trim().toLowerCase().match(WORD) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    words.add(slotOf(`m:${tokens[i]}`, mask));
    if (i > 0) words.add(slotOf(`m:${tokens[i - 1]} ${tokens[i]}`, mask));
  }
  const line = ` ${subject.split('\n')[0]!.toLowerCase()} `;
  for (let i = 0; i + 4 <= line.length; i++) grams.add(slotOf(`s:${line.slice(i, i + 4)}`, mask));
  return scaledParts([words, grams]);
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
