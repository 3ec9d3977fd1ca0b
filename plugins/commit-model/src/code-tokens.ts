import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  ADDED_LINE_CHARS,
  ADDED_LINES_PER_COMMIT,
  type AddedLine,
  type AddedLinesReader,
} from '@cadence-detect/plugin-sdk';
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

export const CODE_TOKEN_MODEL_FILE = new URL('../model/code-tokens.bin', import.meta.url);
/** Raised with any change to codeTokenVector: kept readings of another version are not mixed in. */
export const CODE_TOKENIZER_VERSION = 1;

/** A comment line (or a docstring's or a block comment's line) in the common languages. */
const COMMENT = /^\s*(\/\/+|#(?!include|define|if|endif|else|pragma|import|!)|\/\*+|\*|"""|'''|--\s|<!--)/;

/** How a line is indented: the shape of code, not its words. */
function indentOf(text: string): 'tab' | 's4' | 's2' | 'n' {
  return text.startsWith('\t') ? 'tab' : text.startsWith('    ') ? 's4' : text.startsWith('  ') ? 's2' : 'n';
}

const CODE = feed(FNV_START, 'k:');
const COMMENTS = feed(FNV_START, 'c:');
const SHAPES = {
  tab: feed(FNV_START, 'shape:tab:'),
  s4: feed(FNV_START, 'shape:s4:'),
  s2: feed(FNV_START, 'shape:s2:'),
  n: feed(FNV_START, 'shape:n:'),
};

/**
 * A commit's added lines as hashed tokens in three parts, each scaled to unit length: the words and
 * pairs of words of code lines, those of comment lines, and each line's indentation with its first
 * token. Case is kept (code's identifiers are written as they are).
 */
export function codeTokenVector(lines: readonly AddedLine[], bits = TOKEN_BITS): TokenVector {
  const mask = (1 << bits) - 1;
  const parts = [new Set<number>(), new Set<number>(), new Set<number>()] as const;
  const [code, comments, shapes] = parts;
  const bounds: number[] = [];
  for (const { text } of lines) {
    const comment = COMMENT.test(text);
    tokenBounds(text, bounds);
    addWordsAndPairs(comment ? comments : code, comment ? COMMENTS : CODE, text, bounds, mask);
    const first = bounds.length > 0 ? feed(SHAPES[indentOf(text)], text, bounds[0], bounds[1]) : SHAPES[indentOf(text)];
    shapes.add((first >>> 0) & mask);
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
    const key = codeTokenKey(bytes);
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

/** The reader's key: the weights, the tokenizer's version and the line limits (a change to any gives other numbers). */
export function codeTokenKey(weights: Uint8Array): string {
  const digest = createHash('sha256')
    .update(weights)
    .update(`${CODE_TOKENIZER_VERSION}:${ADDED_LINES_PER_COMMIT}:${ADDED_LINE_CHARS}`)
    .digest('hex');
  return `commit-model/code-tokens@${digest.slice(0, 16)}`;
}
