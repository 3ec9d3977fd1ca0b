import { itemAt } from '@cadence-detect/errors';
import type { DefaultTreeAdapterMap } from 'parse5';
import type { Heading, ImageRef, LinkRef, ListBlock, TextBlock } from '@cadence-detect/plugin-sdk';
import { TextSink } from './text-sink.js';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

/** Not visible text, or the page's chrome rather than its content. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'header',
  'footer',
  'aside',
  'svg',
  'iframe',
  'head',
  'object',
  'canvas',
  'select',
  'button',
]);
/** Elements whose text is one block of its own. */
const BLOCKS = new Set([
  'p',
  'li',
  'blockquote',
  'pre',
  'td',
  'th',
  'dd',
  'dt',
  'figcaption',
  'caption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'section',
  'article',
  'main',
  'body',
  'ul',
  'ol',
  'dl',
  'table',
  'tr',
  'tbody',
  'thead',
  'figure',
  'form',
  'address',
  'details',
  'summary',
]);
const HEADING_LEVELS: ReadonlyMap<string, Heading['level']> = new Map([
  ['h1', 1],
  ['h2', 2],
  ['h3', 3],
  ['h4', 4],
  ['h5', 5],
  ['h6', 6],
]);
/**
 * Elements nested deeper than this (html is depth 1) are counted, and their text goes to the
 * enclosing block, but they open no blocks and record no headings, lists, links or images: no
 * page a person reads nests 256 levels, and a page that does is built to make the model costly.
 */
export const MAX_DEPTH = 256;
/** Path segments a block or record keeps: its element and three ancestors. */
const PATH_SEGMENTS = 4;

export interface WalkResult {
  readonly blocks: TextBlock[];
  readonly headings: Heading[];
  readonly lists: ListBlock[];
  readonly links: LinkRef[];
  readonly images: ImageRef[];
  elements: number;
  deepElements: number;
}

/** One open element (or the document) of the walk. */
interface Frame {
  readonly node: ParentNode;
  /** The child to visit next. */
  next: number;
  /** Element depth: the document 0, html 1. */
  readonly depth: number;
  /** The last PATH_SEGMENTS segments of the path to this node. */
  readonly segments: readonly string[];
  /** Same-tag counts among the children seen so far, for `:nth-of-type`. */
  siblings: Map<string, number> | null;
  /** In a skipped or hidden subtree: elements are counted, nothing else. */
  readonly hidden: boolean;
  /** A block element: text of headings, links and items takes a space between its children. */
  readonly spaced: boolean;
  /** Where the text of the children goes: the innermost open block and collector of each kind. */
  readonly block: TextSink | null;
  readonly heading: TextSink | null;
  readonly link: TextSink | null;
  readonly item: TextSink | null;
  /** This node is a recorded ul/ol: its li children are its items. */
  readonly items: string[] | null;
  readonly close: (() => void) | null;
}

interface MutableHeading {
  level: Heading['level'];
  text: string;
  path: string;
}
interface MutableLink {
  href: string;
  text: string;
  path: string;
}

/**
 * One pass over the parse5 tree with an explicit stack: linear in the number of nodes, whatever the
 * nesting, and no recursion for a deep page to overflow. Blocks are recorded when they close
 * (inner blocks first), headings, lists, links and images when they open, in document order.
 */
export function walkDocument(root: ParentNode): WalkResult {
  const out: WalkResult = { blocks: [], headings: [], lists: [], links: [], images: [], elements: 0, deepElements: 0 };
  const stack: Frame[] = [
    {
      node: root,
      next: 0,
      depth: 0,
      segments: [],
      siblings: null,
      hidden: false,
      spaced: false,
      block: null,
      heading: null,
      link: null,
      item: null,
      items: null,
      close: null,
    },
  ];
  while (stack.length > 0) {
    const frame = itemAt(stack, stack.length - 1);
    const children = frame.node.childNodes;
    if (frame.next >= children.length) {
      stack.pop();
      frame.close?.();
      continue;
    }
    const position = frame.next++;
    const child = itemAt(children, position);
    if (!frame.hidden && frame.spaced && position > 0) addToCollectors(frame, ' ');
    if (!('tagName' in child)) {
      if (!frame.hidden && child.nodeName === '#text') {
        const value = child.value;
        frame.block?.add(value);
        addToCollectors(frame, value);
      }
      continue;
    }
    out.elements++;
    const depth = frame.depth + 1;
    if (depth > MAX_DEPTH) out.deepElements++;
    stack.push(depth > MAX_DEPTH ? deepFrame(frame, child, depth) : openElement(frame, child, depth, out));
  }
  return out;
}

function addToCollectors(frame: Frame, text: string): void {
  frame.heading?.add(text);
  frame.link?.add(text);
  frame.item?.add(text);
}

function isHidden(element: Element): boolean {
  return (
    SKIPPED.has(element.tagName) ||
    attribute(element, 'hidden') !== null ||
    attribute(element, 'aria-hidden') === 'true'
  );
}

function hiddenFrame(element: Element, depth: number): Frame {
  return {
    node: element,
    next: 0,
    depth,
    segments: [],
    siblings: null,
    hidden: true,
    spaced: false,
    block: null,
    heading: null,
    link: null,
    item: null,
    items: null,
    close: null,
  };
}

/** When a block closes: a space after its words in the enclosing block (none when there is no block). */
function closeWithSpace(block: TextSink | null): (() => void) | null {
  return block ? () => block.add(' ') : null;
}

/** Past MAX_DEPTH: the element's text folds into the enclosing block and collectors. */
function deepFrame(parent: Frame, element: Element, depth: number): Frame {
  if (parent.hidden || isHidden(element)) return hiddenFrame(element, depth);
  const tag = element.tagName;
  const separate = BLOCKS.has(tag) || tag === 'br';
  // A block's words stay apart from its neighbours' as they would in a block of their own.
  if (separate) parent.block?.add(' ');
  if (tag === 'br') addToCollectors(parent, ' ');
  return {
    ...parent,
    node: element,
    next: 0,
    depth,
    siblings: null,
    spaced: BLOCKS.has(tag),
    items: null,
    close: separate ? closeWithSpace(parent.block) : null,
  };
}

/** What an element records of its own (a heading, a list, a link, an image, a list item), and the sinks its text goes to. */
function recordElement(
  tag: string,
  element: Element,
  parent: Frame,
  at: { readonly path: () => string; readonly out: WalkResult; readonly closers: (() => void)[] },
): Pick<Frame, 'heading' | 'link' | 'item' | 'items'> {
  const { path, out, closers } = at;
  let { heading, link, item } = parent;
  let items: string[] | null = null;
  const level = HEADING_LEVELS.get(tag);
  if (level !== undefined) {
    const record: MutableHeading = { level, text: '', path: path() };
    out.headings.push(record);
    const sink = (heading = new TextSink());
    closers.push(() => (record.text = sink.text()));
  } else if (tag === 'ul' || tag === 'ol') {
    items = [];
    out.lists.push({ ordered: tag === 'ol', items, path: path() });
  } else if (tag === 'a') {
    const href = attribute(element, 'href');
    if (href !== null) {
      const record: MutableLink = { href, text: '', path: path() };
      out.links.push(record);
      const sink = (link = new TextSink());
      closers.push(() => (record.text = sink.text()));
    }
  } else if (tag === 'img') {
    out.images.push({ src: attribute(element, 'src') ?? '', alt: attribute(element, 'alt'), path: path() });
  } else if (tag === 'li' && parent.items) {
    const list = parent.items;
    const index = list.push('') - 1;
    const sink = (item = new TextSink());
    closers.push(() => (list[index] = sink.text()));
  }
  return { heading, link, item, items };
}

function openElement(parent: Frame, element: Element, depth: number, out: WalkResult): Frame {
  const tag = element.tagName;
  if (parent.hidden) return hiddenFrame(element, depth);
  // Skipped siblings count for :nth-of-type as they do in CSS.
  const siblings = (parent.siblings ??= new Map<string, number>());
  const nth = (siblings.get(tag) ?? 0) + 1;
  siblings.set(tag, nth);
  if (isHidden(element)) return hiddenFrame(element, depth);
  const segment = nth > 1 ? `${tag}:nth-of-type(${nth})` : tag;
  const segments =
    parent.segments.length < PATH_SEGMENTS ? [...parent.segments, segment] : [...parent.segments.slice(1), segment];
  // Most elements (inline text, table rows) record nothing: their path is joined only when asked for.
  let joined: string | undefined;
  const path = (): string => (joined ??= segments.join(' > '));
  const closers: (() => void)[] = [];
  if (tag === 'br') {
    parent.block?.add(' ');
    addToCollectors(parent, ' ');
  }
  const level = HEADING_LEVELS.get(tag);
  const { heading, link, item, items } = recordElement(tag, element, parent, { path, out, closers });
  let block = parent.block;
  if (BLOCKS.has(tag)) {
    const outer = parent.block;
    const own = (block = new TextSink());
    closers.push(() => {
      const text = own.text();
      if (text) out.blocks.push({ tag, text, path: path() });
      if (outer && tag !== 'li' && level === undefined) outer.add(' ');
    });
  }
  return {
    node: element,
    next: 0,
    depth,
    segments,
    siblings: null,
    hidden: false,
    spaced: BLOCKS.has(tag),
    block,
    heading,
    link,
    item,
    items,
    close:
      closers.length === 0
        ? null
        : closers.length === 1
          ? itemAt(closers, 0)
          : () => closers.forEach((close) => close()),
  };
}

export function attribute(element: Element, name: string): string | null {
  return element.attrs.find((a) => a.name === name)?.value ?? null;
}
