import { expect } from 'chai';
import Type from 'typebox';
import { definePlugin, defineStrategy } from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';

// The docs' example, written as a plugin author would under `tsc --strict`: no annotation on
// `context` or on the callbacks. `pnpm typecheck:tests` fails (TS7006, implicit any) unless
// defineStrategy infers the context from `meta.appliesTo`.
const trailers = defineStrategy({
  meta: {
    name: 'ai-trailers-typed',
    category: 'attribution',
    description: 'Credits an assistant in a trailer.',
    appliesTo: 'repository',
    weight: 1,
  },
  analyze(context) {
    return context.commits
      .filter((c) => /co-authored-by:.*copilot/i.test(c.body))
      .map((c) => ({ commit: c.hash, score: 0.95, message: 'credits Copilot in a trailer' }));
  },
});

const headings = defineStrategy({
  meta: {
    name: 'many-headings',
    category: 'structure',
    description: 'More headings than paragraphs.',
    appliesTo: 'website',
    weight: 0.5,
  },
  analyze(context) {
    const { headings: found, blocks } = context.document;
    return found.length > blocks.length
      ? [{ score: 0.6, message: `${found.length} headings for ${blocks.length} blocks`, element: 'page' }]
      : [];
  },
});

describe('defineStrategy infers the context from meta.appliesTo', () => {
  it('types and runs the docs\u2019 example without annotations', async () => {
    const plugin = definePlugin({
      name: 'typed',
      apply: (hooks) =>
        hooks.registerStrategies.tap('typed', (r) => {
          r.add(trailers);
          r.add(headings);
        }),
    });
    const commits = makeCommits([
      { at: 1_600_000_000 },
      { at: 1_600_003_600, body: 'Co-authored-by: GitHub Copilot <copilot@github.com>' },
    ]);
    const run = await runPlugin(plugin, { commits });
    expect(run.detectionsOf('ai-trailers-typed').map((d) => d.commit)).to.deep.equal([commits[1]!.hash]);
  });
});

// API 1.6: declared with its plugin's options schema, a strategy reads its options typed (no cast,
// the default not repeated); packages/plugin-sdk/test/typed-options.types.ts holds what must not compile.
const LIMITS = Type.Object(
  { min_body_lines: Type.Integer({ minimum: 1, default: 3 }) },
  { additionalProperties: false },
);
const longBodies = defineStrategy(LIMITS, {
  meta: {
    name: 'long-bodies',
    category: 'message',
    description: 'Long commit bodies.',
    appliesTo: 'repository',
    weight: 0.5,
  },
  analyze(context) {
    const min: number = context.options.min_body_lines;
    return context.commits
      .filter((c) => c.body.split('\n').length >= min)
      .map((c) => ({ commit: c.hash, score: 0.5, message: `a body of at least ${min} lines` }));
  },
});

describe('defineStrategy types context.options by its plugin\u2019s schema (API 1.6)', () => {
  const plugin = definePlugin({
    name: 'long-bodies',
    meta: { options: LIMITS },
    apply(hooks, environment) {
      const min: number = environment.options.min_body_lines;
      expect(min).to.be.a('number');
      hooks.registerStrategies.tap('long-bodies', (registrar) => registrar.add(longBodies));
    },
  });
  const commits = makeCommits([
    { at: 1_600_000_000 },
    { at: 1_600_003_600, body: 'one\ntwo' },
    { at: 1_600_007_200, body: 'one\ntwo\nthree' },
  ]);

  it('gives the strategy the schema\u2019s default when the user sets nothing', async () => {
    const run = await runPlugin(plugin, { commits });
    expect(run.detectionsOf('long-bodies').map((d) => d.commit)).to.deep.equal([commits[2]!.hash]);
    expect(run.detectionsOf('long-bodies')[0]!.message).to.equal('a body of at least 3 lines');
  });

  it('gives it the user\u2019s value, checked against the schema', async () => {
    const run = await runPlugin(plugin, { commits }, { options: { min_body_lines: 2 } });
    expect(run.detectionsOf('long-bodies').map((d) => d.commit)).to.deep.equal([commits[1]!.hash, commits[2]!.hash]);
    const refused = await runPlugin(plugin, { commits }, { options: { min_body_lines: 0 } }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).to.match(/plugin_options\.long-bodies\.min_body_lines/);
  });
});
