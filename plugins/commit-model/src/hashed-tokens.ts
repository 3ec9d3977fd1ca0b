/**
 * What the commit model's two token models share: tokens hashed into slots, a commit's parts each
 * scaled to unit length, and the shipped weights (sparse on disk, dense in memory).
 */

/** Hashed tokens: slots and their values. */
export interface TokenVector {
  readonly index: Int32Array;
  readonly value: Float32Array;
}

/** A token model in memory: a logistic regression over hashed tokens, one weight per slot. */
export interface TokenModel {
  /** log2 of the number of hash slots. */
  readonly bits: number;
  readonly bias: number;
  readonly weights: Float32Array;
}

export const TOKEN_BITS = 20;

const FNV_OFFSET = 2166136261;
const FNV_PRIME = 16777619;

/**
 * FNV-1a over `text[from, to)`, continuing from `h` (FNV_OFFSET to start): the hash of a string
 * fed in pieces is the hash of the pieces joined, so tokens are hashed where they lie in their
 * line, without making a string of each. Fast, and stable across versions (the shipped weights are
 * addressed by it).
 */
export function feed(h: number, text: string, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

export const FNV_START = FNV_OFFSET;

export function slotOf(text: string, mask: number): number {
  return (feed(FNV_OFFSET, text) >>> 0) & mask;
}

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * The tokens of `text` as [start, end) pairs in `bounds` (cleared first): words, numbers and runs of
 * up to three symbols, as `/[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_]{1,3}/g` splits it, without a
 * string per token. Returns the number of tokens.
 */
export function tokenBounds(text: string, bounds: number[]): number {
  bounds.length = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let j = i + 1;
    if (isLetter(c)) {
      while (j < n && (isLetter(text.charCodeAt(j)) || isDigit(text.charCodeAt(j)))) j++;
    } else if (isDigit(c)) {
      while (j < n && isDigit(text.charCodeAt(j))) j++;
    } else if (isSpace(c)) {
      i = j;
      continue;
    } else {
      while (j < n && j - i < 3 && isSymbol(text.charCodeAt(j))) j++;
    }
    bounds.push(i, j);
    i = j;
  }
  return bounds.length / 2;
}

const isSymbol = (c: number): boolean => !isSpace(c) && !isLetter(c) && !isDigit(c);

/**
 * Adds each token of `text` (hashed after `prefix`) and each pair of neighbouring tokens (joined by
 * a space) to `part`. `bounds` holds the tokens (tokenBounds).
 */
export function addWordsAndPairs(
  part: SlotSink,
  prefix: number,
  text: string,
  bounds: readonly number[],
  mask: number,
): void {
  // Each token hashed once: a pair's hash continues from its first token's (FNV-1a is sequential).
  let previous = 0;
  for (let k = 0; k < bounds.length; k += 2) {
    const token = feed(prefix, text, bounds[k], bounds[k + 1]);
    part.add((token >>> 0) & mask);
    if (k > 0) part.add((feed(Math.imul(previous ^ 0x20, FNV_PRIME), text, bounds[k], bounds[k + 1]) >>> 0) & mask);
    previous = token;
  }
}

/** Where a part's slots go: a Set while fitting, PartSlots while scoring. */
export interface SlotSink {
  add(slot: number): unknown;
}

/**
 * A commit's parts as slot lists, each slot once per part and in the order first added (the order a
 * Set keeps), for scoring many commits one after another: a byte stamp per slot and part marks the
 * slots seen in the current commit, so no Set is built and dropped per commit. Scores exactly as
 * `denseScore(weights, bias, scaledParts(parts))` of the same parts (the same sums in the same order).
 */
export class PartSlots {
  private readonly stamps: Uint8Array[];
  private readonly lists: Int32Array[];
  private readonly sizes: number[];
  private stamp = 0;

  constructor(parts: number, bits: number) {
    this.stamps = Array.from({ length: parts }, () => new Uint8Array(1 << bits));
    this.lists = Array.from({ length: parts }, () => new Int32Array(256));
    this.sizes = new Array<number>(parts).fill(0);
  }

  /** Part `part` as a sink, for addWordsAndPairs. */
  sink(part: number): SlotSink {
    return { add: (slot: number) => this.add(part, slot) };
  }

  /** Starts a commit: no slot is seen yet. */
  begin(): void {
    this.stamp++;
    if (this.stamp > 255) {
      // The stamps wrap: clear them once every 255 commits rather than every commit.
      for (const stamps of this.stamps) stamps.fill(0);
      this.stamp = 1;
    }
    this.sizes.fill(0);
  }

  add(part: number, slot: number): void {
    const stamps = this.stamps[part]!;
    if (stamps[slot] === this.stamp) return;
    stamps[slot] = this.stamp;
    let list = this.lists[part]!;
    const size = this.sizes[part]!;
    if (size === list.length) {
      const grown = new Int32Array(list.length * 2);
      grown.set(list);
      this.lists[part] = list = grown;
    }
    list[size] = slot;
    this.sizes[part] = size + 1;
  }

  /** The linear score of the commit's parts, each scaled to unit length, under dense weights. */
  score(weights: Float32Array, bias: number): number {
    let z = bias;
    for (let part = 0; part < this.lists.length; part++) {
      const size = this.sizes[part]!;
      if (size === 0) continue;
      // As scaledParts stores it: a 32-bit float.
      const v = Math.fround(1 / Math.sqrt(size));
      const list = this.lists[part]!;
      for (let k = 0; k < size; k++) z += weights[list[k]!]! * v;
    }
    return z;
  }
}

/** The parts' slots as one vector, each part scaled to unit length (an empty part adds nothing). */
export function scaledParts(parts: readonly ReadonlySet<number>[]): TokenVector {
  const index: number[] = [];
  const value: number[] = [];
  for (const part of parts) {
    if (part.size === 0) continue;
    const v = 1 / Math.sqrt(part.size);
    for (const slot of part) {
      index.push(slot);
      value.push(v);
    }
  }
  return { index: Int32Array.from(index), value: Float32Array.from(value) };
}

/** The linear score of a vector under dense weights. */
export function denseScore(weights: Float32Array, bias: number, x: TokenVector): number {
  let z = bias;
  for (let k = 0; k < x.index.length; k++) z += weights[x.index[k]!]! * x.value[k]!;
  return z;
}

/**
 * The shipped file: a 32-byte header (`CTKM`, format 1, the slots' bits, the bias and the weight of
 * one unit, little-endian) and one 16-bit weight per slot, in units. Dense and fixed-size: nearly
 * every slot carries a weight once a model has read thousands of commits, and 16 bits keep each
 * within a 32,767th of the largest.
 */
const MAGIC = 0x4d4b5443; // 'CTKM' read as a little-endian 32-bit integer
const HEADER_BYTES = 32;

export function encodeTokenModel(weights: Float32Array, bias: number): Uint8Array {
  const bits = Math.log2(weights.length);
  if (!Number.isInteger(bits)) throw new Error('token weights: not a power of two slots');
  let largest = 0;
  for (const w of weights) largest = Math.max(largest, Math.abs(w));
  const unit = largest > 0 ? largest / 32_767 : 1;
  const bytes = new Uint8Array(HEADER_BYTES + 2 * weights.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint8(4, 1);
  view.setUint8(5, bits);
  view.setFloat64(8, bias, true);
  view.setFloat64(16, unit, true);
  weights.forEach((w, slot) => view.setInt16(HEADER_BYTES + 2 * slot, Math.round(w / unit), true));
  return bytes;
}

export function decodeTokenModel(bytes: Uint8Array): TokenModel {
  const malformed = (why: string): never => {
    throw new Error(`commit model: a token model is malformed (${why})`);
  };
  if (bytes.length < HEADER_BYTES) malformed('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC || view.getUint8(4) !== 1) malformed('not a format-1 token model');
  const bits = view.getUint8(5);
  if (bits < 8 || bits > 24) malformed(`${bits} bits`);
  if (bytes.length !== HEADER_BYTES + 2 * 2 ** bits) malformed(`${bytes.length} bytes for ${bits} bits`);
  const bias = view.getFloat64(8, true);
  const unit = view.getFloat64(16, true);
  if (!Number.isFinite(bias) || !(unit > 0) || !Number.isFinite(unit)) malformed('its bias or unit');
  const weights = new Float32Array(2 ** bits);
  for (let slot = 0; slot < weights.length; slot++) weights[slot] = view.getInt16(HEADER_BYTES + 2 * slot, true) * unit;
  return { bits, bias, weights };
}
