import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { PageDocument, TextBlock } from '@cadence-detect/plugin-sdk';
import { attribute, walkDocument } from './document-walk.js';
import { toDocument, toWire, type DocumentParts, type WireDocument } from './document-wire.js';
import { normalize } from './text-sink.js';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

export interface ParseOptions {
  readonly url: string;
  readonly contentType: string;
}

/**
 * The page as strategies read it (see PageDocument in @cadence-detect/plugin-sdk), parsed on the calling
 * thread. The server parses in a worker (parseDocumentInWorker); this is for tools and tests.
 */
export function parseDocument(body: string, options: ParseOptions): PageDocument {
  // On the calling thread the walk's own blocks become the document: no wire form to build and read back.
  return toDocument(documentParts(body, options));
}

/** parseDocument in the form a worker sends back (see WireDocument). */
export function parseToWire(body: string, options: ParseOptions): WireDocument {
  return toWire(documentParts(body, options));
}

function documentParts(body: string, options: ParseOptions): DocumentParts {
  if (options.contentType === 'text/plain') return plainTextDocument(body, options.url);
  const root = parse(body);
  const html = root.childNodes.find((n) => isElement(n, 'html'));
  const head = html?.childNodes.find((n) => isElement(n, 'head'));
  const titleElement = head?.childNodes.find((n) => isElement(n, 'title'));
  // A title holds only text (parse5 reads it as RCDATA).
  const title = titleElement
    ? normalize(
        titleElement.childNodes
          .map((n) => (n.nodeName === '#text' ? (n as DefaultTreeAdapterMap['textNode']).value : ''))
          .join(''),
      )
    : '';
  const walk = walkDocument(root);
  return {
    url: options.url,
    title,
    lang: html ? attribute(html, 'lang') : null,
    ...walk,
    isProse: (block) => !HEADING_TAG.test(block.tag),
  };
}

const HEADING_TAG = /^h[1-6]$/;

function isElement(node: Node, tag: string): node is Element {
  return 'tagName' in node && node.tagName === tag;
}

function plainTextDocument(body: string, url: string): DocumentParts {
  const paragraphs = body
    .split(/\n\s*\n/)
    .map(normalize)
    .filter(Boolean);
  const blocks: TextBlock[] = paragraphs.map((text, i) => ({ tag: 'p', text, path: `text > p:nth-of-type(${i + 1})` }));
  return {
    url,
    title: '',
    lang: null,
    blocks,
    headings: [],
    lists: [],
    links: [],
    images: [],
    elements: 0,
    deepElements: 0,
    isProse: () => true,
  };
}
