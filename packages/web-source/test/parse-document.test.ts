import { expect } from 'chai';
import { countWords, parseDocument, splitSentences } from '../src/index.js';
import { MAX_DEPTH } from '../src/document-walk.js';
import { MAX_TEXT_PER_BLOCK } from '../src/text-sink.js';

describe('parseDocument', () => {
  const doc = parseDocument(
    `<!doctype html><html lang="en"><head><title> My  page </title><style>p{}</style></head><body>
    <nav><a href="/">Home</a></nav><header>Site header</header>
    <main><h1>Title</h1><p>First sentence here. Second one, e.g. with an abbreviation! Third?</p>
    <h3>Deeper</h3><ul><li>one</li><li>two <b>bold</b></li></ul>
    <p>Link to <a href="/docs">the docs</a>. <img src="a.png"><img src="b.png" alt=""></p>
    <script>var x = "never visible";</script><div hidden>hidden text</div></main>
    <footer>Footer text</footer></body></html>`,
    { url: 'http://x.test/', contentType: 'text/html' },
  );

  it('keeps visible text and drops scripts, styles, navigation, header, footer and hidden elements', () => {
    expect(doc.title).to.equal('My page');
    expect(doc.lang).to.equal('en');
    expect(doc.text).to.contain('First sentence here.');
    for (const hidden of ['never visible', 'Home', 'Site header', 'Footer text', 'hidden text', 'p{}'])
      expect(doc.text).to.not.contain(hidden);
  });

  it('splits sentences, respecting abbreviations', () => {
    expect(doc.sentences).to.include.members([
      'First sentence here.',
      'Second one, e.g. with an abbreviation!',
      'Third?',
    ]);
  });

  it('collects headings with levels, lists, links and images with alt', () => {
    expect(doc.headings.map((h) => [h.level, h.text])).to.deep.equal([
      [1, 'Title'],
      [3, 'Deeper'],
    ]);
    expect(doc.lists[0]).to.deep.include({ ordered: false, items: ['one', 'two bold'] });
    expect(doc.links.map((l) => [l.href, l.text])).to.deep.equal([['/docs', 'the docs']]);
    expect(doc.images.map((i) => i.alt)).to.deep.equal([null, '']);
    expect(doc.elements).to.be.above(15);
    expect(doc.blocks.every((b) => b.path.length > 0)).to.equal(true);
  });

  it('keeps text, sentences and words consistent with the blocks (they travel as offsets into the text)', () => {
    expect(doc.text).to.equal(doc.blocks.map((b) => b.text).join('\n\n'));
    const prose = doc.blocks.filter((b) => !/^h[1-6]$/.test(b.tag));
    expect(doc.sentences).to.deep.equal(prose.flatMap((b) => splitSentences(b.text)));
    expect(doc.sentences).to.not.include('Title');
    expect(doc.words).to.equal(countWords(doc.text));
  });

  it('reads plain text as paragraphs', () => {
    const plain = parseDocument('One paragraph here.\n\nAnother one. With two sentences.', {
      url: 'x',
      contentType: 'text/plain',
    });
    expect(plain.blocks).to.have.length(2);
    expect(plain.sentences).to.have.length(3);
    expect(plain.words).to.equal(8);
  });
});

describe('parseDocument on deep and nested pages', () => {
  const page = (body: string): string => `<!doctype html><html><body>${body}</body></html>`;
  const nested = (depth: number, inner: string): string => '<div>'.repeat(depth) + inner + '</div>'.repeat(depth);
  const read = (html: string) => parseDocument(html, { url: 'http://x.test/', contentType: 'text/html' });

  for (const depth of [5_000, 100_000]) {
    it(`walks ${depth} nested elements without overflowing the stack, as it walks the same count side by side`, () => {
      const deep = read(page(nested(depth, 'Deep words here.')));
      const shallow = read(page('<div>Flat words here.</div>'.repeat(depth)));
      // html, head, body and the divs: every element is counted at any depth.
      expect(deep.elements).to.equal(depth + 3);
      expect(shallow.elements).to.equal(depth + 3);
      // Past the cap (html is level 1, body 2, the first div 3) nothing opens a block.
      expect(deep.deepElements).to.equal(depth + 2 - MAX_DEPTH);
      expect(shallow.deepElements).to.equal(0);
      // The deep text is folded into the last block within the cap, whose path ends in divs.
      expect(deep.blocks).to.have.length(1);
      expect(deep.blocks[0]).to.deep.equal({ tag: 'div', text: 'Deep words here.', path: 'div > div > div > div' });
      expect(deep.sentences).to.deep.equal(['Deep words here.']);
      expect(shallow.blocks).to.have.length(depth);
    });
  }

  it('folds the text of elements past the depth cap into the enclosing block, keeping words apart, and records nothing for them', () => {
    const beyond =
      '<h2>Lost heading</h2><p>one</p><p>two<br>three</p><a href="/deep">deep link</a><img src="deep.png">';
    // html, body and the divs take levels 1 to MAX_DEPTH - 1; the p and the section sit at the cap.
    const doc = read(page(nested(MAX_DEPTH - 3, `<p>Shallow text.</p><section>${beyond}</section>`)));
    expect(doc.blocks).to.deep.equal([
      { tag: 'p', text: 'Shallow text.', path: 'div > div > div > p' },
      { tag: 'section', text: 'Lost heading one two three deep link', path: 'div > div > div > section' },
    ]);
    expect(doc.headings).to.deep.equal([]);
    expect(doc.links).to.deep.equal([]);
    expect(doc.images).to.deep.equal([]);
    expect(doc.deepElements).to.equal(6);
  });

  it("gives a nested list item its own text, not its parent item's", () => {
    // Deliberately unlike the recursive model, whose outer item also held the inner items' text.
    const doc = read(
      page(
        '<ul><li>Parent <b>item</b><ol><li>child one</li><li>child <a href="/c">two</a></li></ol></li><li>sibling</li></ul>',
      ),
    );
    expect(doc.lists.map((l) => [l.ordered, l.items])).to.deep.equal([
      [false, ['Parent item', 'sibling']],
      [true, ['child one', 'child two']],
    ]);
    expect(doc.links).to.deep.equal([{ href: '/c', text: 'two', path: 'li > ol > li:nth-of-type(2) > a' }]);
  });

  it('keeps the text of headings, links and items to the block cap however long the element', () => {
    const long = 'word '.repeat(10_000);
    const doc = read(page(`<h1>${long}</h1><a href="/x">${long}</a><ul><li>${long}</li></ul>`));
    expect(doc.headings[0]!.text).to.have.length(MAX_TEXT_PER_BLOCK);
    expect(doc.links[0]!.text).to.have.length(MAX_TEXT_PER_BLOCK);
    expect(doc.lists[0]!.items[0]).to.have.length(MAX_TEXT_PER_BLOCK);
  });

  it('collapses whitespace of a deep page before it fills a block', () => {
    // 100,000 levels of indentation and separators would pass the raw-text bound if kept.
    const doc = read(page(`${'<div>\n   '.repeat(100_000)}<span>Found.</span>`));
    expect(doc.blocks.map((b) => b.text)).to.deep.equal(['Found.']);
  });
});
