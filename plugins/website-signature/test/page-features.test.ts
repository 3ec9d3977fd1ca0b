import { expect } from 'chai';
import { parseDocument } from '@cadence-detect/web-source';
import {
  coefficientOfVariation,
  isCodeLike,
  mtld,
  PAGE_FEATURE_NAMES,
  pageFeatures,
  type PageFeatureName,
} from '../src/page-features.js';
import { vocabularyTokens } from '../src/lexical-diversity.js';
import { words } from '../src/text-tools.js';

const doc = (body: string) =>
  parseDocument(`<!doctype html><html><head><title>t</title></head><body><main>${body}</main></body></html>`, {
    url: 'https://example.test/',
    contentType: 'text/html',
  });
const feature = (body: string, name: PageFeatureName): number =>
  pageFeatures(doc(body))[PAGE_FEATURE_NAMES.indexOf(name)]!;
const p = (...texts: string[]): string => texts.map((t) => `<p>${t}</p>`).join('');

/** Plain reporting prose written for these tests: it must not fire the template signals. */
const PLAIN = p(
  'The station opened in 1911 and closed to passengers in 1966, though freight trains used the line for another decade.',
  'Its platform was rebuilt twice. Nobody now remembers why the second rebuild moved the ticket office to the north side.',
);

describe('page features', () => {
  it('counts em dashes, colons, semicolons and parentheses per sentence', () => {
    const text = p('The fix is small — one line. The cause: a stale cache; the effect (a crash) was not.');
    expect(feature(text, 'em_dashes_per_sentence')).to.equal(0.5);
    expect(feature(text, 'colons_per_sentence')).to.equal(0.5);
    expect(feature(text, 'semicolons_per_sentence')).to.equal(0.5);
    expect(feature(text, 'parentheses_per_sentence')).to.equal(0.5);
    expect(feature(PLAIN, 'em_dashes_per_sentence')).to.equal(0);
  });

  it('reads documentation\u2019s tells: Latin abbreviations, unterminated sentences, imperative openers, intensifiers, "will"', () => {
    const human = p(
      'Set the port, e.g. 8080, and restart the daemon etc. It just works. See the notes below',
      'Options are read once at startup i.e. a change needs a restart.',
    );
    expect(feature(human, 'latin_abbreviations_per_k')).to.be.above(0);
    expect(feature(human, 'unterminated_sentences')).to.be.above(0);
    expect(feature(human, 'intensifiers_per_k')).to.be.above(0);
    expect(
      feature(p('Run the installer. Open the settings file. The default port is 8080.'), 'imperative_openers'),
    ).to.be.closeTo(2 / 3, 1e-9);
    expect(feature(PLAIN, 'latin_abbreviations_per_k')).to.equal(0);
    expect(feature(PLAIN, 'unterminated_sentences')).to.equal(0);
    expect(feature(PLAIN, 'imperative_openers')).to.equal(0);
    expect(
      feature(p('This will install the daemon. It will restart when the file changes.'), 'will_per_k'),
    ).to.be.closeTo(2000 / 12, 1e-6);
    expect(feature(PLAIN, 'will_per_k')).to.equal(0);
  });

  it('leaves code inline in a paragraph out of the punctuation counts', () => {
    expect(isCodeLike('r.db("rethinkdb").table("current_issues").run(conn, callback);')).to.equal(true);
    expect(isCodeLike('{ id: "<uuid>", type: "<type>", critical: <bool> }')).to.equal(true);
    expect(isCodeLike('The fix is small (one line), and the cause was a stale cache; nobody noticed.')).to.equal(false);
    const withCode = p(
      'The cause: a stale cache; the effect was a crash.',
      'var clock = sinon.useFakeTimers(); clock.tick(10);',
    );
    expect(feature(withCode, 'semicolons_per_sentence')).to.equal(1);
  });

  it('finds "Term: explanation" list items, and not plain items', () => {
    expect(
      feature(
        '<ul><li>Speed: builds finish sooner.</li><li>**Safety**: fewer crashes.</li><li>plain item</li><li>another one</li></ul>',
        'term_explanation_items',
      ),
    ).to.equal(0.5);
    expect(feature('<ul><li>milk</li><li>eggs</li></ul>', 'term_explanation_items')).to.equal(0);
  });

  it('measures second-person address and reader-directed openers', () => {
    const reader = p("Imagine you ship a release on Friday. Here's what your pager does next. Let's look at why.");
    expect(feature(reader, 'reader_openers')).to.equal(1);
    expect(feature(reader, 'second_person_rate')).to.be.above(0.05);
    expect(feature(PLAIN, 'reader_openers')).to.equal(0);
    expect(feature(PLAIN, 'second_person_rate')).to.equal(0);
  });

  it('finds contrast templates and triads', () => {
    const templated = p(
      "It's not just a cache, but a contract. Testing is not about coverage; it's about confidence. It is fast, simple, and reliable.",
    );
    expect(feature(templated, 'contrast_templates')).to.be.above(0.6);
    expect(feature(templated, 'triads_per_sentence')).to.be.above(0.3);
    expect(feature(PLAIN, 'contrast_templates')).to.equal(0);
    expect(feature(PLAIN, 'triads_per_sentence')).to.equal(0);
  });

  it('measures burstiness as the spread of sentence and paragraph lengths', () => {
    expect(coefficientOfVariation([10, 10, 10])).to.equal(0);
    expect(coefficientOfVariation([2, 30, 4, 25])).to.be.above(0.7);
    expect(
      feature(p('One two three four. Five six seven eight. Nine ten eleven twelve.'), 'sentence_length_cv'),
    ).to.equal(0);
  });

  it('gives repetitive text a lower lexical diversity (MTLD) than varied text', () => {
    const repeated = 'the cat sat on the mat and the cat sat on the mat again and again'.split(' ');
    const varied = 'a quick brown fox jumps over lazy dogs while seven wizards quietly hex tall jugglers nearby'.split(
      ' ',
    );
    expect(mtld(repeated)).to.be.below(mtld(varied));
    expect(mtld(['short'])).to.equal(0);
  });

  it("reads lexical diversity over the writer's vocabulary: names and numbers left out", () => {
    const text = 'Prometheus 2.0 ships the new TSDB. The storage is faster, and Prometheus uses less memory.';
    const views = { prose: text, tokens: words(text) };
    // "The" counts: the writer also writes "the"; "Prometheus", "TSDB" and "2.0" never appear in lower case or are numbers.
    expect(vocabularyTokens(views)).to.deep.equal([
      'ships',
      'the',
      'new',
      'the',
      'storage',
      'is',
      'faster',
      'and',
      'uses',
      'less',
      'memory',
    ]);
    // The same release note with more names and versions reads the same diversity.
    const names =
      'Prometheus 2.0 ships the new TSDB from Grafana Labs. The storage is faster, and Prometheus v2.1.3 uses less memory.';
    expect(vocabularyTokens({ prose: names, tokens: words(names) })).to.deep.equal(
      vocabularyTokens(views).slice(0, 3).concat(['from'], vocabularyTokens(views).slice(3)),
    );
  });

  it('reads heading style: Title Case and "X: Y" titles', () => {
    const headings =
      '<h1>Page</h1><h2>Why Caching Matters for Teams</h2><h2>Caching: A Practical Guide</h2><h2>what we changed</h2><h2>Notes</h2>';
    expect(feature(headings + PLAIN, 'title_case_headings')).to.equal(0.5);
    expect(feature(headings + PLAIN, 'colon_titles')).to.equal(0.25);
  });

  it('counts specifics per 1,000 words: numbers, proper nouns and code (links are not read: docs/website-analysis.md)', () => {
    const page =
      PLAIN +
      '<p>See <a href="https://example.test/">the log</a> from Portsmouth.</p><pre><code>make test</code></pre>';
    expect(feature(page, 'numbers_per_k')).to.be.above(30);
    expect(feature(page, 'code_per_k')).to.be.above(0);
    expect(feature(page, 'proper_nouns_per_k')).to.be.above(
      feature(p('nothing here names a place or a person, only words about things that happen.'), 'proper_nouns_per_k'),
    );
    expect(feature(p('Nothing here has a figure in it at all, only words about things.'), 'numbers_per_k')).to.equal(0);
    expect(feature(p('Nothing here has code in it at all, only words about things.'), 'code_per_k')).to.equal(0);
    expect(PAGE_FEATURE_NAMES).to.not.include('links_per_k');
  });

  it('reads an even sample of a large page, with the same rates as the page it repeats', () => {
    // One paragraph per section, its sentences in a different order each time: an evenly sampled
    // page that repeats itself exactly would alias (pick the same sentences of each repeat).
    const sentences = [
      'The fix is small — one line.',
      'The cause: a stale cache; the effect (a crash) was not.',
      'We shipped it on 3 May; you can read the notes, the diff, and the tests in the tracker.',
      'Nobody noticed for a week!',
      'Why did the alarms stay quiet?',
      'The threshold was set too high.',
    ];
    const rotated = (i: number): string => p([...sentences.slice(i % 6), ...sentences.slice(0, i % 6)].join(' '));
    const section = rotated(0);
    const one = pageFeatures(doc(section));
    const big = doc(Array.from({ length: 900 }, (_, i) => `<section>${rotated(i)}</section>`).join(''));
    expect(big.words).to.be.greaterThan(40_000);
    const started = performance.now();
    const many = pageFeatures(big);
    const elapsed = performance.now() - started;
    for (const name of [
      'em_dashes_per_sentence',
      'colons_per_sentence',
      'triads_per_sentence',
      'questions_per_sentence',
      'second_person_rate',
      'numbers_per_k',
    ] as const) {
      const i = PAGE_FEATURE_NAMES.indexOf(name);
      expect(many[i], name).to.be.closeTo(one[i]!, Math.max(0.02, one[i]! * 0.2));
    }
    // A sample, not the whole page: far below what reading 40,000 words with every pattern costs.
    expect(elapsed, `${elapsed} ms`).to.be.lessThan(2000);
  });
});
