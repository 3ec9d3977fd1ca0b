import type { PluginConfigView } from './config-view.js';
import type { ForgeDefinition } from './forge.js';
import type { EngineHooks } from './hooks.js';
import type { PluginLogger } from './logger.js';
import type { OptionsOf, PluginOptions } from './options.js';

/**
 * What the host gives a plugin besides the hooks; `O` is its options' type (see OptionsOf).
 * @since 1.6
 */
export interface PluginEnvironment<O extends object = PluginOptions> {
  /** The plugin API version of the host (see PLUGIN_API_VERSION). */
  readonly apiVersion: string;
  readonly config: PluginConfigView;
  /** This plugin's own child logger (`component` is the plugin's name). */
  readonly logger: PluginLogger;
  /**
   * This plugin's options: the user's `plugin_options.<name>` or `plugins: [{ name, options }]`, checked against `meta.options` with its defaults applied, frozen. `{}` when none.
   * @since 1.1
   */
  readonly options: O;
}

/**
 * What a plugin says about itself, readable without running it; `S` is its options schema's type.
 * @since 1.1
 */
export interface PluginMeta<S extends object = object> {
  /**
   * A JSON Schema of the plugin's options, e.g. a typebox `Type.Object(...)`: the host checks the
   * user's options against it at start-up (exit 2 naming the plugin and the key) and applies its defaults.
   * A plugin without one takes no options. A typebox schema also types the options the plugin reads
   * (`environment.options`, and `context.options` in its strategies): see OptionsOf.
   * @since 1.6
   */
  readonly options?: S;
  /**
   * Where the plugin's settings live in the configuration: `plugin_options.<its name>`
   * (the default for a strategy or reporter) or, for a forge plugin, `forges.<its forge>` (its
   * default). Any other section is refused when the plugin loads. The section's values are checked
   * against `options`; its top-level options are read from the environment too
   * (`CADENCE_PLUGIN_<NAME>_<OPTION>`, `CADENCE_<FORGE>_<OPTION>`), and options whose schema says
   * `secret: true` are masked by `cadence config` and scrubbed from every log line.
   * @since 1.11
   */
  readonly configKey?: string;
  readonly description?: string;
  readonly docsUrl?: string;
}

/**
 * A plugin is the default export of its package: a name and `apply`, in the spirit of webpack plugins.
 * Nothing but the hooks couples it to the host. `S` is the type of its options schema: a
 * `CadencePlugin<typeof schema>` is still a `CadencePlugin`, which is what the host takes.
 * @since 1.6
 */
export interface CadencePlugin<S extends object = object> {
  readonly name: string;
  /** The plugin API range it targets, e.g. `^1.0.0`; the peer dependency on @cadence-detect/plugin-sdk is read when absent. */
  readonly apiVersion?: string;
  readonly meta?: PluginMeta<S>;
  /**
   * Files whose content shapes results (a trained model, a lexicon): the host keys its result
   * cache on their content, so a new model never answers with results of the old one.
   * @since 1.5
   */
  readonly dataFiles?: readonly URL[];
  /**
   * The forge this plugin brings: its webhook intake at `/webhooks/<name>`; the host gives
   * it `forges.<name>` (and `report.fail_on`, `forges.request_drafts`) as options. At most one plugin per forge.
   * @since 1.6
   */
  readonly forge?: ForgeDefinition<OptionsOf<S>>;
  apply(hooks: EngineHooks<OptionsOf<S>>, environment: PluginEnvironment<OptionsOf<S>>): void;
}

/**
 * Declares a plugin. Generic over its options schema, as typescript-eslint's `RuleCreator`
 * and Fastify's `FastifyPluginAsync<Options>` are: with a typebox schema in `meta.options`,
 * `environment.options` in `apply` has the schema's static type, defaults applied, and needs no cast.
 * @since 1.6
 */
export function definePlugin<S extends object = object>(plugin: CadencePlugin<S>): CadencePlugin<S> {
  return plugin;
}
