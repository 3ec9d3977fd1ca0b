import { itemAt } from '@cadence-detect/errors';
import type { PageDocument, TextBlock } from '@cadence-detect/plugin-sdk';
import { countWords, forEachSentence } from './sentences.js';

/** The fields a document shares with its parts and its wire form. */
type Shared = Pick<
  PageDocument,
  'url' | 'title' | 'lang' | 'headings' | 'lists' | 'links' | 'images' | 'elements' | 'deepElements'
>;

/** What the walk (or the plain-text reader) produced: the document before its text is joined. */
export interface DocumentParts extends Shared {
  readonly blocks: readonly TextBlock[];
  /** Headings are blocks but not prose: no sentences. */
  readonly isProse: (block: TextBlock) => boolean;
}

/**
 * A PageDocument as compact plain data. Every block's text and every sentence is a stretch of `text`,
 * so they travel as offsets in transferable arrays, and tags and paths as indexes into tables: a
 * worker's answer costs the receiving thread one string copy instead of a clone of a hundred
 * thousand small strings and objects, which on a 10 MiB page held the event loop for half a second.
 */
export interface WireDocument extends Shared, Pick<PageDocument, 'text' | 'words'> {
  readonly tags: readonly string[];
  readonly paths: readonly string[];
  /** Per block: tag index, path index, text length; blocks are joined in `text` by a blank line. */
  readonly blocks: Int32Array;
  /** Per sentence: start and end offsets in `text`. */
  readonly sentences: Int32Array;
}

const BLOCK_SEPARATOR = '\n\n';

export function toWire(parts: DocumentParts): WireDocument {
  const tags = new Table();
  const paths = new Table();
  const blocks = new Int32Array(parts.blocks.length * 3);
  const sentences: number[] = [];
  let offset = 0;
  parts.blocks.forEach((block, i) => {
    blocks[i * 3] = tags.indexOf(block.tag);
    blocks[i * 3 + 1] = paths.indexOf(block.path);
    blocks[i * 3 + 2] = block.text.length;
    const start = offset;
    if (parts.isProse(block)) forEachSentence(block.text, (from, to) => sentences.push(start + from, start + to));
    offset += block.text.length + BLOCK_SEPARATOR.length;
  });
  const text = parts.blocks.map((b) => b.text).join(BLOCK_SEPARATOR);
  return {
    ...shared(parts),
    text,
    words: countWords(text),
    tags: tags.values,
    paths: paths.values,
    blocks,
    sentences: Int32Array.from(sentences),
  };
}

function shared(parts: Shared): Shared {
  const { url, title, lang, headings, lists, links, images, elements, deepElements } = parts;
  return { url, title, lang, headings, lists, links, images, elements, deepElements };
}

/** The document from the walk's parts directly, on the thread that parsed it: what fromWire(toWire(parts)) gives. */
export function toDocument(parts: DocumentParts): PageDocument {
  const sentences: string[] = [];
  for (const block of parts.blocks) {
    if (parts.isProse(block)) forEachSentence(block.text, (from, to) => sentences.push(block.text.slice(from, to)));
  }
  const text = parts.blocks.map((b) => b.text).join(BLOCK_SEPARATOR);
  return { ...shared(parts), blocks: parts.blocks, text, sentences, words: countWords(text) };
}

/** The buffers postMessage can move rather than copy. */
export function transferables(wire: WireDocument): ArrayBuffer[] {
  return [wire.blocks.buffer as ArrayBuffer, wire.sentences.buffer as ArrayBuffer];
}

export function fromWire(wire: WireDocument): PageDocument {
  const { text } = wire;
  const blocks: TextBlock[] = new Array<TextBlock>(wire.blocks.length / 3);
  let offset = 0;
  for (let i = 0; i < blocks.length; i++) {
    const length = itemAt(wire.blocks, i * 3 + 2);
    blocks[i] = {
      tag: itemAt(wire.tags, itemAt(wire.blocks, i * 3)),
      text: text.slice(offset, offset + length),
      path: itemAt(wire.paths, itemAt(wire.blocks, i * 3 + 1)),
    };
    offset += length + BLOCK_SEPARATOR.length;
  }
  const sentences: string[] = new Array<string>(wire.sentences.length / 2);
  for (let i = 0; i < sentences.length; i++)
    sentences[i] = text.slice(wire.sentences[i * 2], wire.sentences[i * 2 + 1]);
  return {
    url: wire.url,
    title: wire.title,
    lang: wire.lang,
    blocks,
    text,
    sentences,
    words: wire.words,
    headings: wire.headings,
    lists: wire.lists,
    links: wire.links,
    images: wire.images,
    elements: wire.elements,
    deepElements: wire.deepElements,
  };
}

class Table {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  indexOf(value: string): number {
    let found = this.index.get(value);
    if (found === undefined) {
      found = this.values.push(value) - 1;
      this.index.set(value, found);
    }
    return found;
  }
}
