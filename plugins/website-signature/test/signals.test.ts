import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { runPlugin } from '@cadence-detect/plugin-testkit';
import plugin, { websiteOverallScore } from '../src/index.js';
import { stockPhraseFloor } from '../src/lexical-signals.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const page = (body: string): string =>
  `<!doctype html><html><head><title>t</title></head><body><main>${body}</main></body></html>`;
const paragraphs = (...texts: string[]): string => texts.map((t) => `<p>${t}</p>`).join('');
const run = (html: string) => runPlugin(plugin, { html });

/** Neutral filler that trips no signal, to reach the minimum length. */
const FILLER = paragraphs(
  'The station opened in 1911 and closed to passengers in 1966, though freight trains used the line for another decade.',
  'Its platform was rebuilt twice. Nobody now remembers why the second rebuild moved the ticket office to the north side.',
  'A small museum runs tours on the first Sunday of each month, weather permitting, from April to October.',
  'Parking is limited, so most visitors walk from the village green, which takes about twenty minutes along the old track bed.',
);

describe('website-signature signals', () => {
  it('stock-phrases finds the phrases and points at the passage', async () => {
    const result = await run(
      page(
        FILLER +
          paragraphs(
            "In today's fast-paced world, it's important to note that we must delve into the details.",
            'Let us dive into the realm of trains and unlock the potential of a rich tapestry of history.',
          ),
      ),
    );
    const detections = result.detectionsOf('stock-phrases');
    expect(result.strategy('stock-phrases').score).to.be.above(0.5);
    expect(detections.map((d) => d.message).join(' ')).to.contain('"in today\'s fast-paced world"');
    expect(detections[0]!.element).to.match(/p(:nth-of-type\(\d+\))?: ".*"/);
    expect((await run(page(FILLER))).strategy('stock-phrases').score).to.equal(0);
  });

  it('floors the page score with stock phrases only from 5 per 1000 words (human pages reach 3 and 4)', () => {
    expect([3, 4, 4.99].map(stockPhraseFloor)).to.deep.equal([0, 0, 0]);
    expect(stockPhraseFloor(5)).to.equal(0.4);
    expect(stockPhraseFloor(5.5)).to.equal(0.55);
    expect(stockPhraseFloor(6)).to.equal(0.7);
    expect(stockPhraseFloor(12)).to.equal(0.7);
  });

  it('ai-vocabulary counts only the excess over ordinary prose', async () => {
    const heavy = paragraphs(
      'We leverage a robust, seamless and comprehensive approach to navigate the multifaceted landscape.',
      'This pivotal, transformative endeavor showcases a vibrant tapestry and underscores our meticulous, holistic synergy.',
    );
    expect((await run(page(FILLER + heavy))).strategy('ai-vocabulary').score).to.be.above(0.5);
    expect((await run(page(FILLER))).strategy('ai-vocabulary').score).to.equal(0);
  });

  it('transition-density scores sentences that open with transition words', async () => {
    const text = paragraphs(
      'Moreover, the line was busy. Furthermore, it was profitable. Additionally, it employed many people. Consequently, the village grew. Ultimately, the line closed. However, memories remain. Overall, it mattered. Notably, the museum thrives.',
    );
    expect((await run(page(FILLER + text))).strategy('transition-density').score).to.be.above(0.6);
    expect((await run(page(FILLER))).strategy('transition-density').score).to.equal(0);
  });

  it('sentence-uniformity rewards varied sentence lengths and flags uniform ones', async () => {
    const uniform = paragraphs(
      Array.from(
        { length: 12 },
        (_, i) => `The committee reviewed the proposal number ${i} with great care today.`,
      ).join(' '),
    );
    const varied = paragraphs(
      'No. The committee, after what felt like an endless afternoon of arguing about budgets, parking, and whether anyone still reads newsletters, finally agreed. Fine. We left. Outside it was raining harder than I had ever seen it rain in October, and the bus was late. Of course.',
      'Then the bus came. It was full. I walked home in the rain, which took about forty minutes and ruined my shoes, and I swore I would never sit on a committee again. Never. Well, maybe.',
    );
    expect((await run(page(uniform + FILLER))).strategy('sentence-uniformity').score).to.be.above(0.5);
    expect((await run(page(varied + FILLER))).strategy('sentence-uniformity').score).to.be.below(0.3);
  });

  it('repetitive-openings notices the same opening word again and again', async () => {
    const text = paragraphs(
      'By planning ahead, you save time. By staying focused, you finish sooner. By resting well, you stay sharp. By eating well, you keep energy. By reading daily, you learn more. By walking often, you stay fit. By sleeping early, you wake early. By writing notes, you remember.',
    );
    expect((await run(page(FILLER + text))).strategy('repetitive-openings').score).to.be.above(0.5);
  });

  it('unhedged-claims weighs absolutes against hedges', async () => {
    const absolute = paragraphs(
      'You must always ensure the best results. Everyone definitely needs this essential, perfect, ultimate tool. It is absolutely crucial and truly indispensable, and it never fails. Everything is guaranteed and certainly vital.',
    );
    const hedged = paragraphs(
      'I think it might work, probably. Maybe it could be useful, I guess, though I am not sure. It seems fine, perhaps, more or less.',
    );
    expect((await run(page(FILLER + absolute))).strategy('unhedged-claims').score).to.be.above(0.3);
    expect((await run(page(FILLER + hedged))).strategy('unhedged-claims').score).to.equal(0);
  });

  it('structure-density flags a listicle of bold-lead bullets and headings', async () => {
    const list = `<h2>Tips</h2><ul>${Array.from({ length: 12 }, (_, i) => `<li>Tip ${i}: Do the thing well.</li>`).join('')}</ul><h2>More</h2><h3>Even more</h3>`;
    expect((await run(page(FILLER + list))).strategy('structure-density').score).to.be.above(0.5);
    expect((await run(page(FILLER))).strategy('structure-density').score).to.equal(0);
  });

  it('placeholder-text catches assistant leftovers and lorem ipsum', async () => {
    const assistant = await run(
      page(FILLER + paragraphs('As an AI language model, I cannot browse the internet, but here is a summary.')),
    );
    expect(assistant.strategy('placeholder-text').score).to.be.at.least(0.9);
    expect(assistant.result.overall_score).to.be.at.least(0.85);
    const lorem = await run(page(FILLER + paragraphs('Lorem ipsum dolor sit amet, consectetur adipiscing elit.')));
    expect(lorem.strategy('placeholder-text').score).to.equal(0.6);
  });

  it('page-structure reports missing alt text, heading jumps and generic link text', async () => {
    const html = page(`<h1>Title</h1><h4>Jump</h4>${FILLER}<img src="a.png"><a href="/x">click here</a>`);
    const messages = (await run(html))
      .detectionsOf('page-structure')
      .map((d) => d.message)
      .join('\n');
    expect(messages)
      .to.contain('image without alt text')
      .and.contain('heading jumps from h1 to h4')
      .and.contain('generic link text "click here"');
  });

  it('human-voice measures contractions, first person and specifics, and lowers the page score', async () => {
    const human = await run(fixture('human-post.html'));
    expect(human.strategy('human-voice').score).to.be.above(0.6);
    expect(human.detectionsOf('human-voice')).to.have.length(0);
  });

  it('gives a too-short page a low-confidence Likely Human-Written with a detection that says so', async () => {
    const result = await run(page('<p>Welcome to my site. More soon.</p>'));
    expect(result.result.assessment).to.equal('Likely Human-Written');
    expect(result.result.overall_score).to.be.below(0.1);
    expect(result.detectionsOf('text-length')[0]!.message).to.contain('too little text to judge');
  });

  it('scores a generated-style page at least 0.7 and a plain documentation page under 0.4', async () => {
    const generated = await run(fixture('ai-listicle.html'));
    expect(generated.result.overall_score).to.be.at.least(0.7);
    expect(generated.result.assessment).to.equal('Likely AI-Generated');
    expect(generated.result.strategies_triggered).to.be.at.least(3);
    expect((await run(fixture('ai-casual.html'))).result.overall_score).to.be.at.least(0.4);
    // plain-docs.html is the project's own page in the register of the corpus's human docs (short
    // and long paragraphs, plain repeated words, questions, names and code); the model scores it low.
    const plain = await run(fixture('plain-docs.html'));
    expect(plain.result.overall_score).to.be.below(0.4);
    expect(plain.result.assessment).to.equal('Likely Human-Written');
  });

  it('withholds the page model on a page of bullets with too little prose, and says so', async () => {
    const bullets = Array.from(
      { length: 40 },
      (_, i) => `<li>Fixed a bug where option ${i} was read twice when the configuration file also set it.</li>`,
    ).join('');
    const result = await run(
      page(`<h1>Release 2.4</h1><ul>${bullets}</ul><p>Thanks to everyone who reported these.</p>`),
    );
    expect(result.result.metrics).to.include({ 'page-model_too_little_prose': 1 });
    expect(result.strategy('page-model').score).to.be.below(0.1);
    const prose = await run(fixture('ai-listicle.html'));
    expect(prose.result.metrics).to.not.have.property('page-model_too_little_prose');
  });

  it('computes the page score from strategy results alone', () => {
    const base = { category: 'website-signature', detected: true, detections: 1, duration_ms: 1, error: null };
    expect(websiteOverallScore([])).to.equal(null);
    expect(websiteOverallScore([{ ...base, name: 'text-length', score: 0.05 }])).to.equal(0.05);
    const strong = websiteOverallScore([
      { ...base, name: 'stock-phrases', score: 1 },
      { ...base, name: 'ai-vocabulary', score: 1 },
    ]);
    const withHuman = websiteOverallScore([
      { ...base, name: 'stock-phrases', score: 1 },
      { ...base, name: 'ai-vocabulary', score: 1 },
      { ...base, name: 'human-voice', score: 1 },
    ]);
    expect(strong!).to.be.above(withHuman!);
  });
});
