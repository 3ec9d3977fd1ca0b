import { expect } from 'chai';
import { definePlugin, defineStrategy, formatMessage } from '@cadence-detect/plugin-sdk';
import {
  makeCommits,
  runPlugin,
  testStrategy,
  type InvalidCase,
  type TestFunctions,
  type ValidCase,
} from '../src/index.js';

const T0 = Date.parse('2024-03-01T09:00:00Z') / 1000;

/** Flags a commit of more than `limit` added lines, with a message by id (plugin API 1.11). */
const bigCommits = definePlugin({
  name: 'big-commits',
  apply(hooks) {
    hooks.registerStrategies.tap('big-commits', (registrar) =>
      registrar.add(
        defineStrategy({
          meta: {
            name: 'big-commits',
            category: 'size',
            description: 'Flags commits of more than 400 added lines.',
            appliesTo: 'repository',
            weight: 1,
            messages: { tooBig: '{{added}} lines added in one commit (over {{limit}})', unused: 'never used' },
          },
          analyze(context) {
            return context.commits
              .filter((c) => c.additions > 400)
              .map((c) => ({
                commit: c.hash,
                score: 0.8,
                messageId: 'tooBig',
                data: { added: c.additions, limit: 400 },
              }));
          },
        }),
      ),
    );
  },
});

const small = makeCommits([
  { at: T0, additions: 10 },
  { at: T0 + 3600, additions: 20 },
]);
const large = makeCommits([
  { at: T0, additions: 10 },
  { at: T0 + 3600, additions: 900 },
]);

/** Runs the tests testStrategy defines, collecting each one's failure (or null). */
async function outcomes(cases: { valid?: ValidCase[]; invalid?: InvalidCase[] }): Promise<Map<string, string | null>> {
  const defined: Array<{ name: string; body: () => Promise<void> }> = [];
  const runner: TestFunctions = {
    describe: (_name, body) => body(),
    it: (name, body) => void defined.push({ name, body }),
  };
  testStrategy('big-commits', bigCommits, cases, runner);
  const results = new Map<string, string | null>();
  for (const test of defined)
    results.set(
      test.name,
      await test.body().then(
        () => null,
        (error: Error) => error.message,
      ),
    );
  return results;
}

describe('the plugin testkit', () => {
  it('formats a finding\u2019s message from its messageId and data, and keeps the id on the detection', async () => {
    const run = await runPlugin(bigCommits, { commits: large });
    expect(run.detectionsOf('big-commits').map((d) => [d.messageId, d.message, d.commit])).to.deep.equal([
      ['tooBig', '900 lines added in one commit (over 400)', large[1]!.hash],
    ]);
  });

  it('records the reasons a plugin gave for keeping the result out of the cache, and none when it gave none', async () => {
    let refuse = true;
    const flaky = definePlugin({
      name: 'flaky-second-opinion',
      apply: (hooks) =>
        hooks.refineResult.tap('flaky-second-opinion', (result, context) => {
          if (refuse) context.keepOutOfCache?.('the provider did not answer');
          return result;
        }),
    });
    expect((await runPlugin(flaky, { commits: large })).keptOutOfCache).to.deep.equal(['the provider did not answer']);
    refuse = false;
    expect((await runPlugin(flaky, { commits: large })).keptOutOfCache).to.deep.equal([]);
  });

  it('records a finding naming a messageId the strategy does not have as the strategy\u2019s error', async () => {
    const broken = definePlugin({
      name: 'broken-ids',
      apply(hooks) {
        hooks.registerStrategies.tap('broken-ids', (registrar) =>
          registrar.add(
            defineStrategy({
              meta: {
                name: 'broken-ids',
                category: 't',
                description: 'x',
                appliesTo: 'repository',
                weight: 1,
                messages: { a: 'A' },
              },
              // @ts-expect-error a plugin in JavaScript can name an id its meta lacks: the run-time check is for it
              analyze: (c) => [{ commit: c.commits[0]!.hash, score: 0.5, messageId: 'b' }],
            }),
          ),
        );
      },
    });
    const run = await runPlugin(broken, { commits: small });
    expect(run.strategy('broken-ids').error).to.match(/messageId: "b" is not one of its meta.messages/);
  });

  it('testStrategy passes valid and invalid cases that hold, asserting messageIds', async () => {
    const results = await outcomes({
      valid: [{ name: 'small commits', source: { commits: small } }],
      invalid: [
        {
          name: 'one large commit',
          source: { commits: large },
          detections: [{ commit: large[1]!.hash, messageId: 'tooBig', severity: 'high', message: /900 lines/ }],
        },
      ],
    });
    expect([...results.entries()]).to.deep.equal([
      ['small commits', null],
      ['one large commit', null],
    ]);
  });

  it('testStrategy fails a case whose detections differ: a wrong messageId, a wrong count, a detection on a valid source', async () => {
    const results = await outcomes({
      valid: [{ name: 'not valid after all', source: { commits: large } }],
      invalid: [
        { name: 'wrong id', source: { commits: large }, detections: [{ messageId: 'unused' }] },
        { name: 'wrong count', source: { commits: small }, detections: [{ messageId: 'tooBig' }] },
      ],
    });
    expect(results.get('not valid after all')).to.match(/should find nothing here/);
    expect(results.get('wrong id')).to.match(/detection #1: messageId/);
    expect(results.get('wrong count')).to.match(/made 0 detections, expected 1/);
  });

  it('testStrategy says a wrong argument in one line naming its signature, before declaring any test', () => {
    const runner: TestFunctions = {
      describe: () => expect.fail('no test may be declared'),
      it: () => expect.fail('no test may be declared'),
    };
    const strategyObject = { meta: { name: 'big-commits' }, analyze: () => [] };
    const attempts: [string, () => void][] = [
      ['a strategy object as the name', () => testStrategy(strategyObject as never, bigCommits, {}, runner)],
      ['a strategy object as the plugin', () => testStrategy('big-commits', strategyObject as never, {}, runner)],
      ['the cases where the plugin goes', () => testStrategy('big-commits', { valid: [] } as never, {}, runner)],
      ['an array as the cases', () => testStrategy('big-commits', bigCommits, [] as never, runner)],
      ['cases.valid not an array', () => testStrategy('big-commits', bigCommits, { valid: {} } as never, runner)],
      ['the plugin again as the runner', () => testStrategy('big-commits', bigCommits, {}, bigCommits as never)],
    ];
    for (const [what, attempt] of attempts) {
      let message = '';
      try {
        attempt();
      } catch (error) {
        expect(error, what).to.be.instanceOf(TypeError);
        message = (error as Error).message;
      }
      expect(message, what).to.match(/^testStrategy\(strategyName, plugin, cases, runner\?\): /);
      expect(message.split('\n'), what).to.have.length(1);
    }
    let strategyHint = '';
    try {
      testStrategy('big-commits', strategyObject as never, {}, runner);
    } catch (error) {
      strategyHint = (error as Error).message;
    }
    expect(strategyHint).to.contain('this is a strategy; pass the plugin that registers it');
  });

  it('formatMessage fills known placeholders and leaves unknown ones as written', () => {
    expect(formatMessage('{{ a }} and {{b}} and {{c}}', { a: 1, b: 'two' })).to.equal('1 and two and {{c}}');
  });
});
