import type { AssessmentBands, CommitRecord, EngineHooks, PluginConfigView } from '@cadence-detect/plugin-sdk';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { EngineConfig } from '../engine-config.js';
import type { EngineLogger } from '../engine-logger.js';
import type { RegisteredStrategy } from '../strategy-registry.js';

/** What every stage of every analysis reads: set up once, when the engine is made. */
export interface EngineParts {
  readonly hooks: EngineHooks;
  readonly config: EngineConfig;
  /** Frozen through and through: a plugin's apply() or a tap cannot change what later jobs read. */
  readonly pluginConfig: PluginConfigView;
  readonly log: EngineLogger;
  readonly gitLog: EngineLogger;
  /** One child logger per plugin (component = its name), for apply and for its strategies' contexts. */
  readonly pluginLoggers: ReadonlyMap<LoadedPlugin, EngineLogger>;
  /** Registered strategies not named in `strategies.disabled`. */
  readonly enabled: readonly RegisteredStrategy[];
  /** One strategy's time budget. */
  readonly budgetMs: number;
  readonly bands: AssessmentBands;
  /** What a kept result depends on besides its source (cache-key.ts). */
  readonly fingerprint: string;
  readonly isExcludedAuthor: ((commit: CommitRecord) => boolean) | null;
}
