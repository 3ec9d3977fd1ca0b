import type { PluginLogger } from '@cadence-detect/plugin-sdk';

/** What the engine needs of a logger; @cadence-detect/logger's Logger has this shape. */
export interface EngineLogger extends PluginLogger {
  child(component: string, fields?: Record<string, unknown>): EngineLogger;
}

export function silentEngineLogger(): EngineLogger {
  const noop = (): void => undefined;
  const logger: EngineLogger = { debug: noop, info: noop, warn: noop, error: noop, child: () => logger };
  return logger;
}
