import { expect } from 'chai';
import { definePlugin, defineStrategy } from '@cadence-detect/plugin-sdk';
import { runPlugin } from '@cadence-detect/plugin-testkit';
import { renderSarif } from '@cadence-detect/reports';

describe('SARIF keys website findings on their messageId (plugin API 1.11)', () => {
  it('gives each messageId a rule of its own, <strategy>/<messageId>, and keeps findings without one on the strategy\u2019s rule', async () => {
    const wording = definePlugin({
      name: 'wording',
      apply(hooks) {
        hooks.registerStrategies.tap('wording', (registrar) =>
          registrar.add(
            defineStrategy({
              meta: {
                name: 'wording',
                category: 'text',
                description: 'Stock phrases.',
                appliesTo: 'website',
                weight: 1,
                messages: { stockPhrase: 'the phrase "{{phrase}}"' },
              },
              analyze: () => [
                { element: 'p:nth-of-type(1)', score: 0.7, messageId: 'stockPhrase', data: { phrase: 'delve into' } },
                { element: 'p:nth-of-type(2)', score: 0.6, message: 'a plain message' },
              ],
            }),
          ),
        );
      },
    });
    const run = await runPlugin(wording, { html: '<html><body><p>We delve into it.</p><p>Plain.</p></body></html>' });
    const sarif = JSON.parse(renderSarif(run.result)) as {
      runs: Array<{
        tool: { driver: { rules: Array<{ id: string }> } };
        results: Array<{ ruleId: string; message: { text: string } }>;
      }>;
    };
    const [only] = sarif.runs;
    expect(only!.results.map((r) => [r.ruleId, r.message.text])).to.deep.equal([
      ['wording/stockPhrase', 'the phrase "delve into"'],
      ['wording', 'a plain message'],
    ]);
    expect(only!.tool.driver.rules.map((r) => r.id)).to.include.members(['wording', 'wording/stockPhrase']);
  });
});
