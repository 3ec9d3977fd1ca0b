import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { runPlugin } from '@cadence-detect/plugin-testkit';
import plugin, {
  checkPageModel,
  FEATURE_Z_LIMIT,
  PAGE_FEATURE_NAMES,
  pageProbability,
  shippedPageModel,
  shrunkFeatures,
  type PageModel,
} from '../src/index.js';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('the shipped page model (model/page-model.json)', () => {
  const model = shippedPageModel()!;

  it('loads with this plugin\u2019s features, a calibration and its validation figures', () => {
    expect(model).to.not.equal(null);
    expect(model.features).to.deep.equal([...PAGE_FEATURE_NAMES]);
    expect(model.weights).to.have.length(PAGE_FEATURE_NAMES.length);
    expect(model.calibration.slope).to.be.above(0);
    expect(model.validation).to.include({ method: 'leave-one-topic-out' });
    expect(model.validation!.auc).to.be.within(0.5, 1);
    expect(model.validation!.human + model.validation!.machine).to.equal(model.validation!.pages);
  });

  it('keeps the lexicon rates out of the model (weight 0): they are floors and explanations', () => {
    for (const name of ['stock_phrases_per_k', 'ai_vocabulary_per_k', 'transition_openers']) {
      expect(model.weights[PAGE_FEATURE_NAMES.indexOf(name as (typeof PAGE_FEATURE_NAMES)[number])], name).to.equal(0);
    }
  });

  it('scores a page at the human pages\u2019 medians low, and moves with the features it weighs', () => {
    const medians = Float64Array.from(model.human.median);
    const atMedians = pageProbability(model, medians).probability;
    expect(atMedians).to.be.below(0.4);
    // The feature with the largest positive weight, pushed far up, raises the probability; clipped at FEATURE_Z_LIMIT.
    const strongest = model.weights.indexOf(Math.max(...model.weights));
    const pushed = Float64Array.from(medians);
    pushed[strongest] = model.mean[strongest]! + 3 * model.scale[strongest]!;
    expect(pageProbability(model, pushed).probability).to.be.above(atMedians);
    const far = Float64Array.from(medians);
    far[strongest] = model.mean[strongest]! + 1000 * model.scale[strongest]!;
    const limit = Float64Array.from(medians);
    limit[strongest] = model.mean[strongest]! + FEATURE_Z_LIMIT * model.scale[strongest]!;
    expect(pageProbability(model, far).probability).to.be.closeTo(pageProbability(model, limit).probability, 1e-12);
  });

  it('reads a short page\u2019s rates drawn toward the development pages\u2019 mean, and its spreads as measured', () => {
    const shrink = model.shrink!;
    expect(shrink.prior_words).to.be.above(0);
    expect(shrink.features).to.not.include('lexical_diversity_mtld');
    const medians = Float64Array.from(model.human.median);
    // The shrunk feature with the largest weight, far on the machine side: a long page carries it
    // nearly whole, a short one by words / (words + prior_words) of its distance from the center.
    const shrunkIndex = (name: string) => PAGE_FEATURE_NAMES.indexOf(name as (typeof PAGE_FEATURE_NAMES)[number]);
    const strongest = shrink.features
      .map(shrunkIndex)
      .reduce((best, i) => (model.weights[i]! > model.weights[best]! ? i : best));
    expect(model.weights[strongest]).to.be.above(0);
    const pushed = Float64Array.from(medians);
    pushed[strongest] = shrink.center[strongest]! + 3 * model.scale[strongest]!;
    const short = pageProbability(model, pushed, 200).probability;
    const long = pageProbability(model, pushed, 20_000).probability;
    const measured = pageProbability(model, pushed).probability;
    expect(short).to.be.below(long);
    expect(long).to.be.below(measured);
    const drawn = shrunkFeatures(model, pushed, 200);
    const kept = 200 / (200 + shrink.prior_words);
    expect(drawn[strongest]).to.be.closeTo(shrink.center[strongest]! + 3 * model.scale[strongest]! * kept, 1e-9);
    // A feature read as measured is the same at any length.
    const mtld = shrunkIndex('lexical_diversity_mtld');
    expect(drawn[mtld]).to.equal(pushed[mtld]);
  });

  it('refuses a shrink section that does not fit the features', () => {
    const shrink = model.shrink!;
    const short = { ...model, shrink: { ...shrink, center: shrink.center.slice(1) } } as PageModel;
    expect(() => checkPageModel(short)).to.throw(/shrink section/);
    const unknown = { ...model, shrink: { ...shrink, features: [...shrink.features, 'links_per_k'] } } as PageModel;
    expect(() => checkPageModel(unknown)).to.throw(/shrink section/);
    const none = { ...model, shrink: { ...shrink, prior_words: 0 } } as PageModel;
    expect(() => checkPageModel(none)).to.throw(/shrink section/);
  });

  it('refuses a model file whose features are not this plugin\u2019s', () => {
    const stale = { ...model, features: [...model.features.slice(0, -1), 'links_per_k'] } as PageModel;
    expect(() => checkPageModel(stale)).to.throw(/features do not match/);
    const short = { ...model, weights: model.weights.slice(1) } as PageModel;
    expect(() => checkPageModel(short)).to.throw(/features do not match/);
  });

  it('makes the model\u2019s probability the page score when no floor or other strategy moves it', async () => {
    const run = await runPlugin(plugin, { html: fixture('plain-docs.html') });
    expect(run.result.overall_score).to.equal(run.strategy('page-model').score);
    expect(run.result.metrics['page-model_validation_auc']).to.be.closeTo(model.validation!.auc, 1e-3);
  });
});
