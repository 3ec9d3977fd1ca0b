import { itemAt } from '@cadence-detect/errors';

/** Longest text kept for one block, heading, link or list item. */
export const MAX_TEXT_PER_BLOCK = 20_000;
/**
 * Raw characters a sink keeps before whitespace is collapsed: room for MAX_TEXT_PER_BLOCK characters
 * of text padded with up to three whitespace characters each, and a bound on what one huge block
 * costs.
 */
const MAX_RAW_TEXT = 4 * MAX_TEXT_PER_BLOCK;

const NON_SPACE = /\S/;
const SPACE = /\s/;

/** Text gathered for one block or collector while the walk passes through its element. */
export class TextSink {
  private readonly parts: string[] = [];
  private length = 0;
  private endsInSpace = true;

  add(text: string): void {
    const room = MAX_RAW_TEXT - this.length;
    if (room <= 0 || text.length === 0) return;
    // Whitespace after whitespace collapses anyway: without this, a deep page's separators and
    // indentation would fill the sink before its text arrives.
    if (this.endsInSpace && !NON_SPACE.test(text)) return;
    const kept = text.length > room ? text.slice(0, room) : text;
    this.parts.push(kept);
    this.length += kept.length;
    this.endsInSpace = SPACE.test(itemAt(kept, kept.length - 1));
  }

  text(): string {
    return normalize(this.parts.join('')).slice(0, MAX_TEXT_PER_BLOCK);
  }
}

/** Whitespace that normalizing would change: anything but a single space between words. */
const UNNORMALIZED = /[^\S ]| {2}|^ | $/;

export function normalize(text: string): string {
  // Most blocks are already single-spaced: testing costs a scan, replacing a scan and a new string,
  // which on a large page adds up to a noticeable share of the walk for text that does not change.
  return UNNORMALIZED.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}
