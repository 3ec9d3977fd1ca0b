import { expect } from 'chai';
import {
  definePlugin,
  defineStrategy,
  REFINE_STAGE,
  type CadencePlugin,
  type Finding,
  type RepositoryContext,
} from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import size from '@cadence-detect/plugin-size';

const T0 = Date.parse('2020-01-01T00:00:00Z') / 1000;
const commits = makeCommits([{ at: T0 }, { at: T0 + 3600, additions: 2000 }, { at: T0 + 7200, additions: 5 }]);

function pluginWith(name: string, analyze: (context: RepositoryContext) => unknown): CadencePlugin {
  return definePlugin({
    name,
    apply(hooks) {
      hooks.registerStrategies.tap(name, (registrar) =>
        registrar.add(
          defineStrategy({
            meta: { name, category: 'test', description: `${name} fixture`, appliesTo: 'repository', weight: 1 },
            analyze: analyze as (context: RepositoryContext) => Finding[],
          }),
        ),
      );
    },
  });
}

describe('engine isolation of strategies', () => {
  it('records a throwing strategy\u2019s error and runs the others', async () => {
    const run = await runPlugin(
      pluginWith('thrower', () => {
        throw new Error('kaboom');
      }),
      { commits },
      { alongside: [size] },
    );
    expect(run.strategy('thrower')).to.include({ detected: false, detections: 0, error: 'kaboom' });
    expect(run.strategy('size')).to.include({ detected: true, error: null });
    expect(run.result.suspicious_commits).to.equal(1);
  });

  it('records a rejected promise the same way', async () => {
    const run = await runPlugin(
      pluginWith('rejecter', async () => Promise.reject(new Error('async kaboom'))),
      { commits },
    );
    expect(run.strategy('rejecter').error).to.equal('async kaboom');
  });

  for (const [label, garbage] of [
    ['a score out of range', [{ score: 7, message: 'too sure' }]],
    ['a finding without a message', [{ score: 0.5 }]],
    ['a string', 'not findings'],
    ['null', null],
    ['metrics that are not numbers', { findings: [], metrics: { x: 'y' } }],
  ] as const) {
    it(`turns garbage (${label}) into the strategy's error`, async () => {
      const run = await runPlugin(
        pluginWith('garbage', () => garbage),
        { commits },
        { alongside: [size] },
      );
      expect(run.strategy('garbage').error).to.match(/^returned an invalid result/);
      expect(run.strategy('size').error).to.equal(null);
    });
  }

  it('stops waiting for a strategy past its time budget', async () => {
    const started = Date.now();
    const run = await runPlugin(
      pluginWith('sleeper', () => new Promise(() => undefined)),
      { commits },
      { strategyTimeoutSeconds: 0.2, alongside: [size] },
    );
    expect(run.strategy('sleeper').error).to.equal('exceeded its time budget of 200 ms');
    expect(run.strategy('size').detected).to.equal(true);
    expect(Date.now() - started).to.be.below(5000);
  });

  it('skips strategies named in strategies.disabled', async () => {
    const run = await runPlugin(size, { commits }, { disabled: ['size'] });
    expect(run.strategyResults).to.have.length(0);
    expect(run.detections).to.have.length(0);
  });

  it('does not let a plugin edit another plugin\u2019s detections outside refineResult', async () => {
    const meddler = definePlugin({
      name: 'meddler',
      apply(hooks) {
        // The arguments are typed read-only; a plain-JavaScript plugin could write anyway.
        hooks.detection.tap('meddler', (detection) => {
          const writable = detection as { score: number; message: string };
          writable.score = 0;
          writable.message = 'edited';
        });
        hooks.strategyResult.tap('meddler', (result) => {
          (result as { detections: number }).detections = 99;
        });
      },
    });
    const run = await runPlugin(size, { commits }, { alongside: [meddler] });
    expect(run.detectionsOf('size')[0]!.message).to.contain('additions exceeds');
    expect(run.strategy('size').detections).to.equal(1);
  });

  it('runs refineResult taps by their documented stage, whatever the order plugins were loaded in', async () => {
    const order: string[] = [];
    const tapAt = (name: string, stage?: number) =>
      definePlugin({
        name,
        apply(hooks) {
          hooks.refineResult.tapPromise(stage === undefined ? name : { name, stage }, async (result) => {
            order.push(name);
            return result;
          });
        },
      });
    await runPlugin(
      tapAt('second-opinion', REFINE_STAGE.SECOND_OPINION),
      { commits },
      { alongside: [tapAt('adjuster', REFINE_STAGE.ADJUST), tapAt('scorer')] },
    );
    expect(order).to.deep.equal(['scorer', 'adjuster', 'second-opinion']);
  });

  it('lets refineResult change the score and keeps score, suspicion_score and assessment in step', async () => {
    const refiner = definePlugin({
      name: 'refiner',
      apply(hooks) {
        hooks.refineResult.tap('refiner', (result) => ({ ...result, overall_score: 1.7 }));
      },
    });
    const run = await runPlugin(size, { commits }, { alongside: [refiner] });
    expect(run.result).to.include({ overall_score: 1, suspicion_score: 1, assessment: 'likely_ai_generated' });
  });

  it('rejects with ERR_CANCELLED when the job is cancelled during a strategy', async () => {
    const controller = new AbortController();
    // A strategy that never ends, cancelled once it runs.
    const slow = pluginWith('slow', () => {
      queueMicrotask(() => controller.abort());
      return new Promise(() => undefined);
    });
    const error = await runPlugin(slow, { commits }, { signal: controller.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.have.property('code', 'ERR_CANCELLED');
  });

  it('refuses a plugin that registers a strategy with incomplete metadata', async () => {
    const sloppy = definePlugin({
      name: 'sloppy',
      apply(hooks) {
        hooks.registerStrategies.tap('sloppy', (registrar) =>
          registrar.add({
            meta: { name: 'Bad Name', category: 'x', description: 'x', appliesTo: 'repository', weight: 3 },
            analyze: () => [],
          } as never),
        );
      },
    });
    const error = await runPlugin(sloppy, { commits }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/sloppy registered an invalid strategy \(meta\.(name|weight)/);
  });
});
