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
  PartSlots,
  feed,
  FNV_START,
  scaledParts,
  type SlotSink,
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
  const parts = [new Set<number>(), new Set<number>(), new Set<number>()] as const;
  addCodeTokens(lines, parts, bits);
  return scaledParts(parts);
}

/** The three parts of codeTokenVector, added to `parts` (code, comments, shapes). */
function addCodeTokens(
  lines: readonly AddedLine[],
  parts: readonly [SlotSink, SlotSink, SlotSink],
  bits: number,
): void {
  const mask = (1 << bits) - 1;
  const [code, comments, shapes] = parts;
  const bounds: number[] = [];
  for (const { text } of lines) {
    const comment = COMMENT.test(text);
    tokenBounds(text, bounds);
    addWordsAndPairs(comment ? comments : code, comment ? COMMENTS : CODE, text, bounds, mask);
    const first = bounds.length > 0 ? feed(SHAPES[indentOf(text)], text, bounds[0], bounds[1]) : SHAPES[indentOf(text)];
    shapes.add((first >>> 0) & mask);
  }
}

/**
 * The reader the commit model gives the line pass: each commit's code-token score under `model`,
 * exactly `denseScore(model, codeTokenVector(lines))`, read through one PartSlots reused from commit
 * to commit (a whole history's pass reads tens of thousands of commits: no Sets or vectors per commit).
 */
export function codeTokenReader(model: TokenModel, key: string): AddedLinesReader {
  const slots = new PartSlots(3, model.bits);
  const parts = [slots.sink(0), slots.sink(1), slots.sink(2)] as const;
  return {
    key,
    read: (lines) => {
      slots.begin();
      addCodeTokens(lines, parts, model.bits);
      return slots.score(model.weights, model.bias);
    },
  };
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
