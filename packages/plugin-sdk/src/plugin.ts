import type { PluginConfigView } from './config-view.js';
import type { ForgeDefinition } from './forge.js';
import type { EngineHooks } from './hooks.js';
import type { PluginLogger } from './logger.js';

/** What the host gives a plugin besides the hooks. */
export interface PluginEnvironment {
  /** The plugin API version of the host (see PLUGIN_API_VERSION). */
  readonly apiVersion: string;
  readonly config: PluginConfigView;
  /** This plugin's own child logger (`component` is the plugin's name). */
  readonly logger: PluginLogger;
  /** This plugin's options (API 1.1): the user's `plugin_options.<name>` or `plugins: [{ name, options }]`, checked against `meta.options` with its defaults applied, frozen. `{}` when none. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** What a plugin says about itself, readable without running it (API 1.1). */
export interface PluginMeta {
  /**
   * A JSON Schema of the plugin's options, e.g. a typebox `Type.Object(...)`: the host checks the
   * user's options against it at start-up (exit 2 naming the plugin and the key) and applies its defaults.
   * A plugin without one takes no options.
   */
  readonly options?: object;
  readonly description?: string;
  readonly docsUrl?: string;
}

/**
 * A plugin is the default export of its package: a name and `apply`, in the spirit of webpack plugins.
 * Nothing but the hooks couples it to the host.
 */
export interface CadencePlugin {
  readonly name: string;
  /** The plugin API range it targets, e.g. `^1.0.0`; the peer dependency on @cadence-detect/plugin-sdk is read when absent. */
  readonly apiVersion?: string;
  readonly meta?: PluginMeta;
  /**
   * Files whose content shapes results (a trained model, a lexicon): the host keys its result
   * cache on their content, so a new model never answers with results of the old one (API 1.5).
   */
  readonly dataFiles?: readonly URL[];
  /**
   * The forge this plugin brings (API 1.6): its webhook intake at `/webhooks/<name>`; the host gives
   * it `forges.<name>` (and `report.fail_on`, `forges.request_drafts`) as options. At most one plugin per forge.
   */
  readonly forge?: ForgeDefinition;
  apply(hooks: EngineHooks, environment: PluginEnvironment): void;
}

export function definePlugin<P extends CadencePlugin>(plugin: P): P {
  return plugin;
}
