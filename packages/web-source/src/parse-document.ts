import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { PageDocument } from '@cadence/plugin-sdk';
import { attribute, walkDocument } from './document-walk.js';
import { splitSentences, countWords } from './sentences.js';
import { normalize } from './text-sink.js';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

export interface ParseOptions {
  readonly url: string;
  readonly contentType: string;
}

/**
 * The page as strategies read it (see PageDocument in @cadence/plugin-sdk), parsed on the calling
 * thread. The server parses in a worker (parseDocumentInWorker); this is for tools and tests.
 */
export function parseDocument(body: string, options: ParseOptions): PageDocument {
  if (options.contentType === 'text/plain') return plainTextDocument(body, options.url);
  const root = parse(body);
  const html = root.childNodes.find((n) => isElement(n, 'html')) as Element | undefined;
  const head = html?.childNodes.find((n) => isElement(n, 'head')) as Element | undefined;
  const titleElement = head?.childNodes.find((n) => isElement(n, 'title')) as Element | undefined;
  // A title holds only text (parse5 reads it as RCDATA).
  const title = titleElement ? normalize(titleElement.childNodes.map((n) => (n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : '')).join('')) : '';
  const walk = walkDocument(root);
  const text = walk.blocks.map((b) => b.text).join('\n\n');
  const prose = walk.blocks.filter((b) => !/^h[1-6]$/.test(b.tag)).map((b) => b.text);
  return {
    url: options.url,
    title,
    lang: html ? attribute(html, 'lang') : null,
    blocks: walk.blocks,
    text,
    sentences: prose.flatMap(splitSentences),
    words: countWords(text),
    headings: walk.headings,
    lists: walk.lists,
    links: walk.links,
    images: walk.images,
    elements: walk.elements,
    deepElements: walk.deepElements,
  };
}

function isElement(node: Node, tag: string): boolean {
  return 'tagName' in node && node.tagName === tag;
}

function plainTextDocument(body: string, url: string): PageDocument {
  const paragraphs = body.split(/\n\s*\n/).map(normalize).filter(Boolean);
  const blocks = paragraphs.map((text, i) => ({ tag: 'p', text, path: `text > p:nth-of-type(${i + 1})` }));
  const text = paragraphs.join('\n\n');
  return {
    url,
    title: '',
    lang: null,
    blocks,
    text,
    sentences: paragraphs.flatMap(splitSentences),
    words: countWords(text),
    headings: [],
    lists: [],
    links: [],
    images: [],
    elements: 0,
    deepElements: 0,
  };
}
