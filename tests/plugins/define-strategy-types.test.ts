import { expect } from 'chai';
import { definePlugin, defineStrategy } from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';

// The docs' example, written as a plugin author would under `tsc --strict`: no annotation on
// `context` or on the callbacks. `pnpm typecheck:tests` fails (TS7006, implicit any) unless
// defineStrategy infers the context from `meta.appliesTo`.
const trailers = defineStrategy({
  meta: { name: 'ai-trailers-typed', category: 'attribution', description: 'Credits an assistant in a trailer.', appliesTo: 'repository', weight: 1 },
  analyze(context) {
    return context.commits
      .filter((c) => /co-authored-by:.*copilot/i.test(c.body))
      .map((c) => ({ commit: c.hash, score: 0.95, message: 'credits Copilot in a trailer' }));
  },
});

const headings = defineStrategy({
  meta: { name: 'many-headings', category: 'structure', description: 'More headings than paragraphs.', appliesTo: 'website', weight: 0.5 },
  analyze(context) {
    const { headings: found, blocks } = context.document;
    return found.length > blocks.length ? [{ score: 0.6, message: `${found.length} headings for ${blocks.length} blocks`, element: 'page' }] : [];
  },
});

describe('defineStrategy infers the context from meta.appliesTo', () => {
  it('types and runs the docs\u2019 example without annotations', async () => {
    const plugin = definePlugin({ name: 'typed', apply: (hooks) => hooks.registerStrategies.tap('typed', (r) => { r.add(trailers); r.add(headings); }) });
    const commits = makeCommits([{ at: 1_600_000_000 }, { at: 1_600_003_600, body: 'Co-authored-by: GitHub Copilot <copilot@github.com>' }]);
    const run = await runPlugin(plugin, { commits });
    expect(run.detectionsOf('ai-trailers-typed').map((d) => d.commit)).to.deep.equal([commits[1]!.hash]);
  });
});
