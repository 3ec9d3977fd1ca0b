import { existsSync, readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';

/**
 * Compression-based similarity to machine-written text (the idea of ZipPy): a sample that shares
 * the habits of the seed compresses better once the compressor has seen the seed. Deflate's preset
 * dictionary holds 32 KiB, so the seed is read in 32 KiB windows and the gain averaged over them.
 * The seed (model/compression-seed.txt) is the project's own machine-written text, written apart
 * from every page used to validate the model. No human seed is shipped (the project ships no
 * third-party text): the human reference is what the same measure gives on the corpus's human
 * pages, which the page model learns.
 */
const WINDOW = 32 * 1024;
/** A page's first 32 KiB of text is enough to measure; a 5 MB page costs no more than a long post. */
const SAMPLE_LIMIT = 32 * 1024;

export const SEED_FILE = new URL('../model/compression-seed.txt', import.meta.url);

let windows: Buffer[] | null | undefined;

function seedWindows(): Buffer[] | null {
  if (windows !== undefined) return windows;
  if (!existsSync(SEED_FILE)) return (windows = null);
  const seed = Buffer.from(readFileSync(SEED_FILE, 'utf8').replace(/\s+/g, ' '));
  const list: Buffer[] = [];
  for (let start = 0; start < seed.length; start += WINDOW) list.push(seed.subarray(start, start + WINDOW));
  return (windows = list.length > 0 ? list : null);
}

/**
 * The share of a sample's compressed size that the seed saves: (alone - primed) / alone, averaged
 * over the seed's windows. 0 when no seed is shipped or the text is empty.
 */
export function compressionGain(text: string, seed: readonly Buffer[] | null = seedWindows()): number {
  const sample = Buffer.from(text.slice(0, SAMPLE_LIMIT).replace(/\s+/g, ' ').trim());
  if (!seed || seed.length === 0 || sample.length === 0) return 0;
  const alone = deflateRawSync(sample, { level: 9 }).length;
  let gain = 0;
  for (const dictionary of seed) gain += (alone - deflateRawSync(sample, { level: 9, dictionary }).length) / alone;
  return gain / seed.length;
}
