import type { Tap } from 'tapable';
import { CadenceError } from '@cadence-detect/errors';
import type { EngineHooks, Strategy, StrategyMeta } from '@cadence-detect/plugin-sdk';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import { validateStrategyMeta } from './strategy-validation.js';

/** A registered strategy's metadata and the plugin that registered it (what `/api/plugins` lists). */
export interface StrategyInfo extends StrategyMeta {
  readonly plugin: string;
  readonly package: string;
  readonly version: string;
}

export interface RegisteredStrategy {
  readonly strategy: Strategy;
  readonly info: StrategyInfo;
  /** The plugin that registered it: its options and logger go with the strategy's context. */
  readonly owner: LoadedPlugin | null;
}

/**
 * Applies each plugin and collects the strategies they register, remembering which plugin added
 * which: tapable's `register` interceptor sees the taps a plugin adds while it is applied, and the
 * `tap` interceptor tells, while the hook runs, whose tap is running.
 */
export function applyPlugins(
  hooks: EngineHooks,
  plugins: readonly LoadedPlugin[],
  applyOne: (loaded: LoadedPlugin) => void,
): RegisteredStrategy[] {
  const owners = new Map<Tap, LoadedPlugin>();
  let applying: LoadedPlugin | null = null;
  let running: LoadedPlugin | null = null;
  hooks.registerStrategies.intercept({
    register: (tap) => {
      if (applying) owners.set(tap, applying);
      return tap;
    },
    tap: (tap) => {
      running = owners.get(tap) ?? null;
    },
  });
  for (const loaded of plugins) {
    applying = loaded;
    try {
      applyOne(loaded);
    } finally {
      applying = null;
    }
  }
  const registered: RegisteredStrategy[] = [];
  const names = new Set<string>();
  const readerKeys = new Map<string, string>();
  hooks.registerStrategies.call({
    add(strategy: Strategy) {
      const owner = running;
      validateStrategyMeta(strategy, owner?.packageName ?? 'unknown plugin');
      if (names.has(strategy.meta.name)) {
        throw new CadenceError('ERR_INTERNAL', {
          message: `Strategy "${strategy.meta.name}" is registered twice (second time by ${owner?.packageName ?? 'an unknown plugin'})`,
        });
      }
      names.add(strategy.meta.name);
      refuseSharedReaderKey(strategy, readerKeys);
      registered.push({
        strategy,
        owner,
        info: Object.freeze({
          ...strategy.meta,
          plugin: owner?.plugin.name ?? 'unknown',
          package: owner?.packageName ?? 'unknown',
          version: owner?.version ?? '0.0.0',
        }),
      });
    },
  });
  return registered;
}

/** Two readers under one key would write into one set of kept numbers: the second is refused. */
function refuseSharedReaderKey(strategy: Strategy, keys: Map<string, string>): void {
  const key = (strategy as { addedLines?: { key: string } }).addedLines?.key;
  if (key === undefined) return;
  const first = keys.get(key);
  if (first !== undefined)
    throw new CadenceError('ERR_INTERNAL', {
      message: `Strategy "${strategy.meta.name}" reads added lines under the key "${key}" that "${first}" already uses`,
    });
  keys.set(key, strategy.meta.name);
}
