import { displayText } from '../display-text.js';

/**
 * HTML that escapes by default. `html` is a tagged template: every interpolated value is text and
 * is escaped (after dropping the control and bidirectional characters a browser would act on),
 * unless it is a `SafeHtml`, which only `html` itself and `rawHtml` make. So a page is built of
 * fragments that were escaped where they were written, and forgetting to escape is not possible:
 * a string always goes in as text.
 */
const safeHtmlBrand: unique symbol = Symbol('SafeHtml');

/** Markup this code wrote, or text already escaped: interpolated as it is. */
export interface SafeHtml {
  readonly [safeHtmlBrand]: true;
  /** The markup. */
  readonly html: string;
  toString(): string;
}

class Markup implements SafeHtml {
  readonly [safeHtmlBrand] = true as const;
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

/**
 * What an interpolation may be: markup, text, a number, or nothing (`null`, `undefined`, `false`,
 * for `${condition && html`...`}`), or a list of those (joined with nothing between). `true` is not
 * one: it would show as the word.
 */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

/** The auto-escaping tag: `html`<td>${name}</td>`` escapes `name` unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (const [i, value] of values.entries()) out += valueHtml(value) + (strings[i + 1] ?? '');
  return new Markup(out);
}

function valueHtml(value: HtmlValue): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (value instanceof Markup) return value.html;
  // A number holds no markup (and no control character).
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value as readonly HtmlValue[]) out += valueHtml(item);
    return out;
  }
  return escapeHtml(value);
}

/**
 * Markup taken as it is: only for what this code itself wrote and cannot be written with `html`
 * (a bundled script, the style sheet, a Content-Security-Policy). Never for anything from a
 * repository, a page or a request.
 */
export function rawHtml(markup: string): SafeHtml {
  return new Markup(markup);
}

/** Whether a value is markup made by `html` or `rawHtml`. */
export function isSafeHtml(value: unknown): value is SafeHtml {
  return value instanceof Markup;
}

/** What escaping changes: the five characters below, controls (but tab and line feed) and bidi marks. */
// eslint-disable-next-line no-control-regex -- the control characters are what escaping removes
const NEEDS_ESCAPING = /[&<>"'\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML content and attribute values: every string from a repository or page goes
 * through it, so it also drops the control and bidirectional characters a browser would act on.
 * Text with none of those (most of it) is returned as it is.
 */
export function escapeHtml(value: unknown): string {
  const text = String(value);
  if (!NEEDS_ESCAPING.test(text)) return text;
  return displayText(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Fragments one after another with `separator` (text, escaped) between them, as Array.join does. */
export function joinHtml(values: readonly HtmlValue[], separator: string): SafeHtml {
  const between = escapeHtml(separator);
  let out = '';
  for (let i = 0; i < values.length; i++) out += (i > 0 ? between : '') + valueHtml(values[i]);
  return new Markup(out);
}
