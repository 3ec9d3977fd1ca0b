import { toPluginConfigView, type CadenceConfig } from '@cadence-detect/config';
import { createEngine, type Engine } from '@cadence-detect/engine';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { Logger } from '@cadence-detect/logger';

/** The one way the CLI, the server and the streams build the engine from the configuration. */
export function engineFromConfig(config: CadenceConfig, logger: Logger, plugins: readonly LoadedPlugin[]): Engine {
  return createEngine({ config, pluginConfig: toPluginConfigView(config), logger, plugins });
}
