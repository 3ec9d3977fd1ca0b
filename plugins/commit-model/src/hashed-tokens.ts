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

/** Words, numbers and runs of up to three symbols. */
export const WORD = /[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_]{1,3}/g;

export function slotOf(text: string, mask: number): number {
  // FNV-1a: fast, and stable across versions (the shipped weights are addressed by it).
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0) & mask;
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
