import { expect } from 'chai';
import { parseDocument } from '../src/index.js';

describe('parseDocument', () => {
  const doc = parseDocument(`<!doctype html><html lang="en"><head><title> My  page </title><style>p{}</style></head><body>
    <nav><a href="/">Home</a></nav><header>Site header</header>
    <main><h1>Title</h1><p>First sentence here. Second one, e.g. with an abbreviation! Third?</p>
    <h3>Deeper</h3><ul><li>one</li><li>two <b>bold</b></li></ul>
    <p>Link to <a href="/docs">the docs</a>. <img src="a.png"><img src="b.png" alt=""></p>
    <script>var x = "never visible";</script><div hidden>hidden text</div></main>
    <footer>Footer text</footer></body></html>`, { url: 'http://x.test/', contentType: 'text/html' });

  it('keeps visible text and drops scripts, styles, navigation, header, footer and hidden elements', () => {
    expect(doc.title).to.equal('My page');
    expect(doc.lang).to.equal('en');
    expect(doc.text).to.contain('First sentence here.');
    for (const hidden of ['never visible', 'Home', 'Site header', 'Footer text', 'hidden text', 'p{}']) expect(doc.text).to.not.contain(hidden);
  });

  it('splits sentences, respecting abbreviations', () => {
    expect(doc.sentences).to.include.members(['First sentence here.', 'Second one, e.g. with an abbreviation!', 'Third?']);
  });

  it('collects headings with levels, lists, links and images with alt', () => {
    expect(doc.headings.map((h) => [h.level, h.text])).to.deep.equal([[1, 'Title'], [3, 'Deeper']]);
    expect(doc.lists[0]).to.deep.include({ ordered: false, items: ['one', 'two bold'] });
    expect(doc.links.map((l) => [l.href, l.text])).to.deep.equal([['/docs', 'the docs']]);
    expect(doc.images.map((i) => i.alt)).to.deep.equal([null, '']);
    expect(doc.elements).to.be.above(15);
    expect(doc.blocks.every((b) => b.path.length > 0)).to.equal(true);
  });

  it('reads plain text as paragraphs', () => {
    const plain = parseDocument('One paragraph here.\n\nAnother one. With two sentences.', { url: 'x', contentType: 'text/plain' });
    expect(plain.blocks).to.have.length(2);
    expect(plain.sentences).to.have.length(3);
    expect(plain.words).to.equal(8);
  });
});
