import { parse } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { Heading, ImageRef, LinkRef, ListBlock, PageDocument, TextBlock } from '@cadence/plugin-sdk';
import { splitSentences, countWords } from './sentences.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Not visible text, or the page's chrome rather than its content. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'aside', 'svg', 'iframe', 'head', 'object', 'canvas', 'select', 'button']);
/** Elements whose text is one block of its own. */
const BLOCKS = new Set([
  'p', 'li', 'blockquote', 'pre', 'td', 'th', 'dd', 'dt', 'figcaption', 'caption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'div', 'section', 'article', 'main', 'body', 'ul', 'ol', 'dl', 'table', 'tr', 'tbody', 'thead', 'figure', 'form', 'address', 'details', 'summary',
]);
const MAX_TEXT_PER_BLOCK = 20_000;

interface Walk {
  blocks: TextBlock[];
  headings: Heading[];
  lists: ListBlock[];
  links: LinkRef[];
  images: ImageRef[];
  elements: number;
}

/** The page as strategies read it (see PageDocument in @cadence/plugin-sdk). */
export function parseDocument(body: string, options: { url: string; contentType: string }): PageDocument {
  if (options.contentType === 'text/plain') return plainTextDocument(body, options.url);
  const root = parse(body);
  const walk: Walk = { blocks: [], headings: [], lists: [], links: [], images: [], elements: 0 };
  let title = '';
  let lang: string | null = null;
  const html = root.childNodes.find((n): n is Element => 'tagName' in n && n.tagName === 'html');
  if (html) {
    lang = attribute(html, 'lang');
    const head = html.childNodes.find((n): n is Element => 'tagName' in n && n.tagName === 'head');
    const titleElement = head?.childNodes.find((n): n is Element => 'tagName' in n && n.tagName === 'title');
    if (titleElement) title = normalize(textOf(titleElement));
  }
  visit(root, [], walk, null);
  const text = walk.blocks.map((b) => b.text).join('\n\n');
  const prose = walk.blocks.filter((b) => !/^h[1-6]$/.test(b.tag)).map((b) => b.text);
  return {
    url: options.url,
    title,
    lang,
    blocks: walk.blocks,
    text,
    sentences: prose.flatMap(splitSentences),
    words: countWords(text),
    headings: walk.headings,
    lists: walk.lists,
    links: walk.links,
    images: walk.images,
    elements: walk.elements,
  };
}

interface OpenBlock {
  tag: string;
  path: string;
  parts: string[];
}

function visit(node: Node, path: string[], walk: Walk, block: OpenBlock | null): void {
  if (!('childNodes' in node)) {
    if (node.nodeName === '#text' && block) block.parts.push((node as DefaultTreeAdapterMap['textNode']).value);
    return;
  }
  const siblingsByTag = new Map<string, number>();
  for (const child of node.childNodes) {
    if (!('tagName' in child)) {
      visit(child, path, walk, block);
      continue;
    }
    walk.elements++;
    const tag = child.tagName;
    const index = (siblingsByTag.get(tag) ?? 0) + 1;
    siblingsByTag.set(tag, index);
    if (SKIPPED.has(tag) || attribute(child, 'hidden') !== null || attribute(child, 'aria-hidden') === 'true') {
      walk.elements += countElements(child);
      continue;
    }
    const childPath = [...path, index > 1 ? `${tag}:nth-of-type(${index})` : tag];
    recordElement(child, childPath, walk);
    if (BLOCKS.has(tag)) {
      const own: OpenBlock = { tag, path: childPath.slice(-4).join(' > '), parts: [] };
      visit(child, childPath, walk, own);
      const text = normalize(own.parts.join(''));
      if (text) walk.blocks.push({ tag, text: text.slice(0, MAX_TEXT_PER_BLOCK), path: own.path });
      if (block && tag !== 'li' && !/^h[1-6]$/.test(tag)) block.parts.push(' ');
    } else {
      if (tag === 'br' && block) block.parts.push(' ');
      visit(child, childPath, walk, block);
    }
  }
}

function recordElement(element: Element, path: string[], walk: Walk): void {
  const tag = element.tagName;
  const where = path.slice(-4).join(' > ');
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) walk.headings.push({ level: Number(heading[1]) as Heading['level'], text: normalize(textOf(element)), path: where });
  else if (tag === 'ul' || tag === 'ol') {
    const items = element.childNodes.filter((n): n is Element => 'tagName' in n && n.tagName === 'li').map((li) => normalize(textOf(li)));
    walk.lists.push({ ordered: tag === 'ol', items, path: where });
  } else if (tag === 'a') {
    const href = attribute(element, 'href');
    if (href !== null) walk.links.push({ href, text: normalize(textOf(element)), path: where });
  } else if (tag === 'img') {
    walk.images.push({ src: attribute(element, 'src') ?? '', alt: attribute(element, 'alt'), path: where });
  }
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if (!('childNodes' in node)) return '';
  if ('tagName' in node && SKIPPED.has(node.tagName) && node.tagName !== 'head') return '';
  return node.childNodes.map((child) => (('tagName' in child && child.tagName === 'br') ? ' ' : textOf(child))).join(BLOCKS.has((node as Element).tagName) ? ' ' : '');
}

function countElements(node: Node): number {
  if (!('childNodes' in node)) return 0;
  let count = 0;
  for (const child of node.childNodes) {
    if ('tagName' in child) count += 1 + countElements(child);
  }
  return count;
}

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((a) => a.name === name)?.value ?? null;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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
  };
}
