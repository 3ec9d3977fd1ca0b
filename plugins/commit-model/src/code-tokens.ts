import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddedLine, AddedLinesReader } from '@cadence-detect/plugin-sdk';
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

export const CODE_TOKEN_MODEL_FILE = new URL('../model/code-tokens.bin', import.meta.url);

/** A comment line (or a docstring's or a block comment's line) in the common languages. */
const COMMENT = /^\s*(\/\/+|#(?!include|define|if|endif|else|pragma|import|!)|\/\*+|\*|"""|'''|--\s|<!--)/;

/** How a line is indented, with its first token: the shape of code, not its words. */
function shapeOf(text: string, first: string): string {
  const indent = text.startsWith('\t') ? 'tab' : text.startsWith('    ') ? 's4' : text.startsWith('  ') ? 's2' : 'n';
  return `${indent}:${first}`;
}

/**
 * A commit's added lines as hashed tokens in three parts, each scaled to unit length: the words and
 * pairs of words of code lines, those of comment lines, and each line's indentation with its first
 * token. Case is kept (code's identifiers are written as they are).
 */
export function codeTokenVector(lines: readonly AddedLine[], bits = TOKEN_BITS): TokenVector {
  const mask = (1 << bits) - 1;
  const parts = [new Set<number>(), new Set<number>(), new Set<number>()] as const;
  const [code, comments, shapes] = parts;
  for (const { text } of lines) {
    const comment = COMMENT.test(text);
    const part = comment ? comments : code;
    const prefix = comment ? 'c:' : 'k:';
    const words = text.match(WORD) ?? [];
    for (let i = 0; i < words.length; i++) {
      part.add(slotOf(prefix + words[i]!, mask));
      if (i > 0) part.add(slotOf(`${prefix}${words[i - 1]!} ${words[i]!}`, mask));
    }
    shapes.add(slotOf(`shape:${shapeOf(text, words[0] ?? '')}`, mask));
  }
  return scaledParts(parts);
}

/** The reader the commit model gives the line pass: each commit's code-token score under `model`. */
export function codeTokenReader(model: TokenModel, key: string): AddedLinesReader {
  return { key, read: (lines) => denseScore(model.weights, model.bias, codeTokenVector(lines, model.bits)) };
}

let shipped: AddedLinesReader | null = null;

/**
 * The shipped code-token model's reader. Its key is the model file's digest: new weights make a
 * kept line pass read the history again instead of mixing two models' numbers. The weights are
 * parsed on the first commit read, not when the strategy is registered.
 */
export function shippedCodeTokenReader(): AddedLinesReader {
  if (!shipped) {
    const bytes = readFileSync(CODE_TOKEN_MODEL_FILE);
    const key = `commit-model/code-tokens@${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
    let reader: AddedLinesReader | null = null;
    shipped = {
      key,
      read: (lines) => {
        reader ??= codeTokenReader(decodeTokenModel(bytes), key);
        return reader.read(lines);
      },
    };
  }
  return shipped;
}
