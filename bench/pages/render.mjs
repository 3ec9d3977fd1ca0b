// One renderer and one cleaning step for both sides of the page corpus: front matter and template
// tags removed, Markdown rendered by markdown-it, the same page shell around it. Whatever differs
// between the sides after this is in the writing, not in how the page was made.
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

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
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title ?? '')}</title></head><body><main><article>\n${markdown.render(heading + body)}</article></main></body></html>`;
}

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
