/**
 * Type-level tests of typed plugin options (API 1.6), compiled by `pnpm typecheck:tests` (and so by
 * `pnpm test`), never run: each `@ts-expect-error` marks code that must not compile, and the build
 * fails when it does compile (an option read that its schema lacks, a strategy added by a plugin
 * that does not provide its options).
 */
import Type from 'typebox';
import {
  definePlugin,
  defineStrategy,
  type CadencePlugin,
  type EngineHooks,
  type PluginOptions,
  type RepositoryContext,
} from '@cadence-detect/plugin-sdk';
import { tapForgeReporter } from '@cadence-detect/forge-kit';

const OPTIONS = Type.Object(
  {
    min_lines: Type.Integer({ minimum: 1, default: 300 }),
    label: Type.Optional(Type.String()),
    paths: Type.Array(Type.String(), { default: [] }),
  },
  { additionalProperties: false },
);

export const typed = defineStrategy(OPTIONS, {
  meta: { name: 'typed', category: 'size', description: 'Typed options.', appliesTo: 'repository', weight: 0.5 },
  analyze(context) {
    // The context is still inferred from appliesTo, and the options from the schema: no casts.
    const commits: RepositoryContext<object>['commits'] = context.commits;
    const minLines: number = context.options.min_lines;
    const label: string | undefined = context.options.label;
    const first: string | undefined = context.options.paths[0];
    // @ts-expect-error: the schema has no `max_lines`, so a strategy cannot read it
    void context.options.max_lines;
    // @ts-expect-error: options are the host's, frozen: read-only to the type as well
    context.options.min_lines = 1;
    // @ts-expect-error: nested arrays are frozen too
    context.options.paths.push('x');
    return commits.length > minLines ? [{ score: 0.5, message: `${label ?? ''}${first ?? ''}` }] : [];
  },
});

export const plugin = definePlugin({
  name: 'typed',
  meta: { options: OPTIONS },
  apply(hooks, environment) {
    const minLines: number = environment.options.min_lines;
    // @ts-expect-error: nor can the plugin read an option its schema lacks
    void environment.options.max_lines;
    void minLines;
    hooks.registerStrategies.tap('typed', (registrar) => registrar.add(typed));
  },
});

// A typed plugin is still the host's CadencePlugin.
export const asHostSees: CadencePlugin = plugin;

// The untyped 1.x forms compile unchanged: options stay a record of unknowns.
export const untyped = defineStrategy({
  meta: { name: 'untyped', category: 'size', description: 'Untyped options.', appliesTo: 'website', weight: 0.5 },
  analyze(context) {
    const options: PluginOptions = context.options;
    const minLines = (context.options.min_lines ?? 300) as number;
    return context.document.words > minLines && Object.keys(options).length > 0 ? [] : [];
  },
});

export const plainSchema = definePlugin({
  name: 'plain',
  meta: { options: { type: 'object', properties: { min_lines: { type: 'integer', default: 300 } } } },
  apply(hooks, environment) {
    const options: PluginOptions = environment.options;
    void options;
    // An untyped strategy goes with any plugin.
    hooks.registerStrategies.tap('plain', (registrar) => registrar.add(untyped));
    // @ts-expect-error: a strategy that reads OPTIONS belongs to a plugin that declares them
    hooks.registerStrategies.tap('plain', (registrar) => registrar.add(typed));
  },
});

const OTHER = Type.Object({ min_lines: Type.Integer({ default: 300 }) });
export const other = definePlugin({
  name: 'other',
  meta: { options: OTHER },
  apply(hooks) {
    // @ts-expect-error: `other` has min_lines but not paths, which `typed` reads
    hooks.registerStrategies.tap('other', (registrar) => registrar.add(typed));
    hooks.registerStrategies.tap('other', (registrar) => registrar.add(untyped));
  },
});

// A typed plugin's hooks still go to helpers written for the untyped ones (a forge reporter's).
export const reporter = definePlugin({
  name: 'typed-reporter',
  meta: { options: OPTIONS },
  apply(hooks) {
    const plain: EngineHooks = hooks;
    tapForgeReporter(hooks, 'typed-reporter', 'github', { start() {}, async finish() {}, async fail() {} });
    void plain;
  },
});

// Message ids (API 2.0): a finding names one of its strategy's `meta.messages`, checked at compile time.
export const withMessages = defineStrategy({
  meta: {
    name: 'with-messages',
    category: 'size',
    description: 'Typed message ids.',
    appliesTo: 'repository',
    weight: 0.5,
    messages: { large: 'Added {{lines}} lines', burst: 'A burst of {{count}} commits' },
  },
  // @ts-expect-error a finding names 'larg', which is not one of meta.messages' ids
  analyze(context) {
    const first = context.commits[0];
    if (!first) return [];
    return [
      { score: 1, commit: first.hash, messageId: 'large', data: { lines: 3 } },
      { score: 1, commit: first.hash, messageId: 'larg', data: { lines: 3 } },
    ];
  },
});

export const rightIds = defineStrategy({
  meta: {
    name: 'right-ids',
    category: 'size',
    description: 'Typed message ids, every one declared.',
    appliesTo: 'repository',
    weight: 0.5,
    messages: { large: 'Added {{lines}} lines', burst: 'A burst of {{count}} commits' },
  },
  analyze: (context) =>
    context.commits.map((c) => ({ score: 1, commit: c.hash, messageId: 'burst' as const, data: { count: 2 } })),
});

// Without `messages`, any id still compiles (a strategy that formats its own `message`).
export const untypedMessages = defineStrategy({
  meta: { name: 'untyped', category: 'size', description: 'No messages.', appliesTo: 'repository', weight: 0.5 },
  analyze: () => [{ score: 0.5, messageId: 'anything', message: 'its own words' }],
});
