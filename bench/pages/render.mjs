// One renderer and one cleaning step for both sides of the page corpus: front matter and template
// tags removed, Markdown rendered by markdown-it, the same page shell around it. Whatever differs
// between the sides after this is in the writing, not in how the page was made.
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
// Links become their text on both sides: the machine pages' writers had no real pages to link to,
// so a link count would tell the sides apart by how the corpus was made (links alone separated them
// with AUC 0.95 before this), and the page model reads no link feature for the same reason.
markdown.renderer.rules.link_open = () => '';
markdown.renderer.rules.link_close = () => '';

/** Markdown source to the text the renderer sees: no front matter, comments or site-generator tags. */
export function cleanMarkdown(source) {
  return source
    .replace(/^\uFEFF/, '')
    .replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '')
    .replace(/^\+\+\+\r?\n[\s\S]*?\r?\n\+\+\+\r?\n/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\{%[\s\S]*?%\}/g, '')
    .replace(/\{\{[\s\S]*?\}\}/g, '')
    .replace(/^\s*<\/?[a-zA-Z][^>]*>\s*$/gm, '')
    .replace(/<\/?(?:a|br|img|span|sup|sub)\b[^>]*>/gi, '')
    .trim();
}

/** The front matter's `title:` if any (the page's own title, when its Markdown has no `#` heading). */
export function frontMatterTitle(source) {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  const title = block && /^title:\s*["']?(.+?)["']?\s*$/m.exec(block[1]);
  return title ? title[1] : null;
}

export function renderPage(source) {
  const body = cleanMarkdown(source);
  const title = frontMatterTitle(source);
  const heading = title && !/^#\s/m.test(body) ? `# ${title}\n\n` : '';
  const env = {};
  const tokens = normalizeHeadingLevels(markdown.parse(heading + body, env));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title ?? '')}</title></head><body><main><article>\n${markdown.renderer.render(tokens, markdown.options, env)}</article></main></body></html>`;
}

/**
 * The page's own title stays the h1 and its top section level becomes h2: sites differ in whether
 * sections start at `##` or `###` (their templates own the h1 or the h2), which says how a site is
 * built, not how its pages were written.
 */
function normalizeHeadingLevels(tokens) {
  const headings = tokens.filter((t) => t.type === 'heading_open' || t.type === 'heading_close');
  const opens = headings.filter((t) => t.type === 'heading_open');
  const titleIsFirst = opens.length > 0 && opens[0].tag === 'h1';
  const sections = opens.slice(titleIsFirst ? 1 : 0).map((t) => Number(t.tag.slice(1)));
  if (sections.length === 0) return tokens;
  const shift = Math.min(...sections) - 2;
  let seen = 0;
  for (const t of headings) {
    const isTitle = titleIsFirst && seen < 2;
    seen++;
    if (isTitle) continue;
    t.tag = `h${Math.min(6, Math.max(2, Number(t.tag.slice(1)) - shift))}`;
  }
  return tokens;
}

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
