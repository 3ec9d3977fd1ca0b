import { findCopies, heldBy, type AddedBlock } from './ledger-texts.js';
import { UNKNOWN_ORIGIN as UNKNOWN } from './line-replay.js';
import { RUN_SPAN, type FileState } from './ledger-state.js';

/**
 * A block of added lines that copied from its own file: what it needs to be lined up again at the
 * head. Of the file before the commit, only the lines whose text the block holds (the others can
 * match none of its lines): where they were, their texts, their writers and their own copy tags
 * (a line an earlier copying block added); the block's own writers, and which of its lines the
 * commit's own alignment copied.
 */
export interface CopySite {
  readonly block: AddedBlock;
  readonly own: readonly number[];
  readonly copied: Uint8Array;
  readonly oldLength: number;
  readonly oldAt: Int32Array;
  readonly oldTexts: Uint32Array;
  readonly oldWriters: Int32Array;
  readonly oldTags: Float64Array;
}

/** What a block needs to be lined up again at the head (CopySite), taken from the file before the commit. */
export function copySite(
  block: AddedBlock,
  own: readonly number[],
  copied: Uint8Array,
  old: { readonly writers: readonly number[]; readonly texts: readonly number[]; readonly tags?: readonly number[] },
  index: ReadonlyMap<number, readonly number[]>,
): CopySite {
  const at = heldBy(block.texts, index);
  return {
    block,
    own,
    copied,
    oldLength: old.texts.length,
    oldAt: Int32Array.from(at),
    oldTexts: Uint32Array.from(at, (i) => old.texts[i]!),
    oldWriters: Int32Array.from(at, (i) => old.writers[i] ?? UNKNOWN),
    oldTags: Float64Array.from(at, (i) => old.tags?.[i] ?? 0),
  };
}

/** Site 0: no site (a tag of 0 is a line of no copying block). */
export const NO_SITE: CopySite = {
  block: { texts: [], weights: [] },
  own: [],
  copied: new Uint8Array(0),
  oldLength: 0,
  oldAt: new Int32Array(0),
  oldTexts: new Uint32Array(0),
  oldWriters: new Int32Array(0),
  oldTags: new Float64Array(0),
};

/** The file before the site's commit, whole: a text no line of the block holds where the site kept none. */
function oldFileOf(site: CopySite): { texts: Uint32Array; writers: Int32Array; tags: Float64Array } {
  const held = new Set(site.block.texts);
  let filler = 1;
  while (held.has(filler)) filler++;
  const texts = new Uint32Array(site.oldLength).fill(filler);
  const writers = new Int32Array(site.oldLength).fill(UNKNOWN);
  const tags = new Float64Array(site.oldLength);
  site.oldAt.forEach((at, k) => {
    texts[at] = site.oldTexts[k]!;
    writers[at] = site.oldWriters[k]!;
    tags[at] = site.oldTags[k]!;
  });
  return { texts, writers, tags };
}

/** Where the file before the site's commit holds each of `wanted` (a part of the block's texts), from the lines the site kept. */
function placesOf(site: CopySite, wanted: ReadonlySet<number>): Map<number, number[]> {
  const places = new Map<number, number[]>();
  site.oldAt.forEach((at, k) => {
    const text = site.oldTexts[k]!;
    if (!wanted.has(text)) return;
    const list = places.get(text);
    if (list) list.push(at);
    else places.set(text, [at]);
  });
  return places;
}

/** How many lines from `at` carry tags of one site, one after another (a stretch of one block). */
function taggedStretch(tags: ArrayLike<number>, at: number, limit: number): number {
  let end = at + 1;
  while (end < limit && tags[end] === tags[end - 1]! + 1 && tags[end]! % RUN_SPAN !== 0) end++;
  return end - at;
}

/**
 * What blame gives the lines of copying blocks, judged as blame judges them: a block's lines that
 * stand together are lined up against the file before their commit as one block, and a line a
 * copy takes from that file is, in turn, judged with the lines taken alongside it, as a block of
 * the commit that added it (blame passes them back together, apart from that commit's other
 * lines). Pieces are judged once each.
 */
class CopyJudge {
  private readonly judged = new Map<string, (number | null)[]>();

  constructor(private readonly sites: readonly CopySite[]) {}

  /** Per line of `length` lines of site `index` from `from`: the writer a copy gives it, or null where none does. */
  piece(index: number, from: number, length: number): (number | null)[] {
    const key = `${index} ${from} ${length}`;
    const known = this.judged.get(key);
    if (known) return known;
    const site = this.sites[index]!;
    const writers = new Array<number | null>(length).fill(null);
    const piece: AddedBlock = {
      texts: site.block.texts.slice(from, from + length),
      weights: site.block.weights.slice(from, from + length),
    };
    const before = oldFileOf(site);
    const take = (start: number, at: number, run: number): void => {
      for (let k = 0; k < run;) {
        const tag = before.tags[at + k]!;
        if (tag <= 0) {
          const writer = before.writers[at + k]!;
          if (writer !== UNKNOWN) writers[start + k] = writer;
          k++;
          continue;
        }
        const stretch = taggedStretch(before.tags, at + k, at + run);
        const earlier = Math.floor(tag / RUN_SPAN);
        const offset = tag % RUN_SPAN;
        const inner = this.piece(earlier, offset, stretch);
        for (let q = 0; q < stretch; q++) writers[start + k + q] = inner[q] ?? this.sites[earlier]!.own[offset + q]!;
        k += stretch;
      }
    };
    findCopies(piece, before.texts, take, placesOf(site, new Set(piece.texts)));
    this.judged.set(key, writers);
    return writers;
  }
}

/**
 * Copies within a file as blame -M sees them from the head: each part of a copying block that
 * stands together at the head is judged (CopyJudge). Its lines no copy takes are the block's
 * commit's own where the commit's own alignment had copied them; the others (a move from another
 * file, an assistant's record) keep what they have.
 */
export function judgeCopies(state: FileState, sites: readonly CopySite[]): Map<string, number[]> {
  const judge = new CopyJudge(sites);
  const files = new Map(state.origins);
  for (const [path, values] of state.origins) {
    const tags = state.tags.get(path);
    if (!tags || tags.length !== values.length) continue;
    const out = [...values];
    for (let i = 0; i < tags.length;) {
      const tag = tags[i]!;
      if (tag <= 0) {
        i++;
        continue;
      }
      const index = Math.floor(tag / RUN_SPAN);
      const from = tag % RUN_SPAN;
      const length = taggedStretch(tags, i, tags.length);
      const site = sites[index]!;
      const writers = judge.piece(index, from, length);
      for (let k = 0; k < length; k++) {
        const writer = writers[k];
        if (writer !== null && writer !== undefined) out[i + k] = writer;
        else if (site.copied[from + k]) out[i + k] = site.own[from + k]!;
      }
      i += length;
    }
    files.set(path, out);
  }
  return files;
}
