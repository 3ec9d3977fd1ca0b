/** The parsed page that website strategies read (built with parse5 by the web source). */
export interface TextBlock {
  /** The element that holds the text: p, li, td, blockquote, pre, ... */
  readonly tag: string;
  readonly text: string;
  /** A short CSS-like path that locates the element, e.g. `main > article > p:nth-of-type(3)`. */
  readonly path: string;
}

export interface Heading {
  readonly level: 1 | 2 | 3 | 4 | 5 | 6;
  readonly text: string;
  readonly path: string;
}

export interface ListBlock {
  readonly ordered: boolean;
  readonly items: readonly string[];
  readonly path: string;
}

export interface LinkRef {
  readonly href: string;
  readonly text: string;
  readonly path: string;
}

export interface ImageRef {
  readonly src: string;
  /** null when the attribute is missing; '' when it is present and empty (a decorative image). */
  readonly alt: string | null;
  readonly path: string;
}

export interface PageDocument {
  readonly url: string;
  readonly title: string;
  readonly lang: string | null;
  /** Visible text blocks, without script, style, nav, header, footer and similar boilerplate. */
  readonly blocks: readonly TextBlock[];
  /** All visible text, blocks joined by blank lines. */
  readonly text: string;
  readonly sentences: readonly string[];
  readonly words: number;
  readonly headings: readonly Heading[];
  readonly lists: readonly ListBlock[];
  readonly links: readonly LinkRef[];
  readonly images: readonly ImageRef[];
  /** Count of elements in the parsed tree (the `parse` stream event's `elements`). */
  readonly elements: number;
  /**
   * Elements nested deeper than the document model's depth cap (256 levels): counted in `elements`,
   * their text part of the enclosing block, but no blocks, headings, lists, links or images of their
   * own. 0 on pages people write.
   */
  readonly deepElements: number;
}
