import type { PluginConfigView } from './config-view.js';
import type { EngineHooks } from './hooks.js';
import type { PluginLogger } from './logger.js';

/** What the host gives a plugin besides the hooks. */
export interface PluginEnvironment {
  /** The plugin API version of the host (see PLUGIN_API_VERSION). */
  readonly apiVersion: string;
  readonly config: PluginConfigView;
  readonly logger: PluginLogger;
}

/**
 * A plugin is the default export of its package: a name and `apply`, in the spirit of webpack plugins.
 * Nothing but the hooks couples it to the host.
 */
export interface CadencePlugin {
  readonly name: string;
  /** The plugin API range it targets, e.g. `^1.0.0`; the peer dependency on @cadence/plugin-sdk is read when absent. */
  readonly apiVersion?: string;
  apply(hooks: EngineHooks, environment: PluginEnvironment): void;
}

export function definePlugin<P extends CadencePlugin>(plugin: P): P {
  return plugin;
}
