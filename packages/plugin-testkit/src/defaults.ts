import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import type { PluginConfigView, Thresholds } from '@cadence-detect/plugin-sdk';
import type { EngineConfig } from '@cadence-detect/engine';

/** The configuration's own defaults, from its schema (never a hand copy that could drift). */
const DEFAULTS = defaultConfig();

/** The configuration's threshold defaults (docs/configuration.md): what a plugin sees when a test does not say otherwise. */
export const DEFAULT_THRESHOLDS: Thresholds = Object.freeze({ ...DEFAULTS.thresholds });

export function pluginConfigView(overrides: TestConfig = {}): PluginConfigView {
  const view = toPluginConfigView(DEFAULTS);
  return {
    ...view,
    thresholds: { ...view.thresholds, ...overrides.thresholds },
    exclude_files: overrides.exclude_files ?? view.exclude_files,
    strategies: { disabled: overrides.disabled ?? view.strategies.disabled },
  };
}

export function engineConfig(overrides: TestConfig = {}): EngineConfig {
  return {
    limits: {
      ...DEFAULTS.limits,
      strategy_timeout_seconds: overrides.strategyTimeoutSeconds ?? DEFAULTS.limits.strategy_timeout_seconds,
    },
    git: { ...DEFAULTS.git },
    assessment: overrides.assessment ?? { ...DEFAULTS.assessment },
  };
}

/** What a test may change of the configuration a plugin sees. */
export interface TestConfig {
  readonly thresholds?: Partial<Thresholds>;
  readonly exclude_files?: readonly string[];
  readonly disabled?: readonly string[];
  readonly strategyTimeoutSeconds?: number;
  /** Where ai_share turns into an assessment (configuration `assessment.*`). */
  readonly assessment?: { readonly suspicious: number; readonly likely_ai_generated: number };
}
