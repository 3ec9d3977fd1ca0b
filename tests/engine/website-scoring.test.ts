import { expect } from 'chai';
import { defineStrategy, definePlugin } from '@cadence-detect/plugin-sdk';
import { runPlugin } from '@cadence-detect/plugin-testkit';

const PAGE = `<!doctype html><html><head><title>t</title></head><body><main>${'<p>The station opened in 1911 and closed in 1966.</p>'.repeat(20)}</main></body></html>`;

function websiteStrategy(
  name: string,
  score: number,
  extra: { calibrated?: boolean; covers?: string[]; floor?: number; weight?: number } = {},
) {
  return defineStrategy({
    meta: {
      name,
      category: 'test',
      description: `Scores ${score}.`,
      appliesTo: 'website',
      weight: extra.weight ?? 1,
      ...(extra.calibrated ? { calibrated: true } : {}),
    },
    analyze: () => ({
      findings: [],
      score,
      ...(extra.covers ? { covers: extra.covers } : {}),
      ...(extra.floor !== undefined ? { floor: extra.floor } : {}),
    }),
  });
}

function pluginOf(name: string, ...strategies: ReturnType<typeof websiteStrategy>[]) {
  return definePlugin({
    name,
    apply: (hooks) => hooks.registerStrategies.tap(name, (r) => strategies.forEach((s) => r.add(s))),
  });
}

describe('website scoring (the engine owns the page score)', () => {
  it('takes a calibrated strategy\u2019s probability as the page score; the strategies it covers only explain it', async () => {
    const model = pluginOf(
      'model',
      websiteStrategy('model', 0.3, { calibrated: true, covers: ['signal'] }),
      websiteStrategy('signal', 1),
    );
    expect((await runPlugin(model, { html: PAGE })).result.overall_score).to.equal(0.3);
  });

  it('lets a third party\u2019s strategy move the page score in log-odds, by its weight and score', async () => {
    const model = pluginOf('model', websiteStrategy('model', 0.5, { calibrated: true }));
    const strong = pluginOf('third-party', websiteStrategy('third-party', 1));
    const half = pluginOf('third-party-half', websiteStrategy('third-party-half', 1, { weight: 0.5 }));
    // 0.5 → sigmoid(0 + 2 × 1 × 1) = 0.881; with weight 0.5: sigmoid(1) = 0.731.
    expect((await runPlugin(model, { html: PAGE }, { alongside: [strong] })).result.overall_score).to.equal(0.881);
    expect((await runPlugin(model, { html: PAGE }, { alongside: [half] })).result.overall_score).to.equal(0.731);
  });

  it('keeps a floor a strategy sets, whatever the model says', async () => {
    const model = pluginOf(
      'model',
      websiteStrategy('model', 0.1, { calibrated: true, covers: ['leftovers'] }),
      websiteStrategy('leftovers', 0.95, { floor: 0.85 }),
    );
    const result = (await runPlugin(model, { html: PAGE })).result;
    expect(result.overall_score).to.equal(0.85);
    expect(result.assessment).to.equal('Likely AI-Generated');
  });

  it('averages the strategies by weight when no calibrated strategy runs, so a third party scoring 1 is not lost', async () => {
    const alone = pluginOf('alone', websiteStrategy('alone', 1));
    const other = pluginOf('other', websiteStrategy('other', 0, { weight: 1 }));
    expect((await runPlugin(alone, { html: PAGE }, { alongside: [other] })).result.overall_score).to.equal(0.5);
  });
});
