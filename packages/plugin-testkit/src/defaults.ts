import type { PluginConfigView, Thresholds } from '@cadence/plugin-sdk';
import type { EngineConfig } from '@cadence/engine';

/** Decisions §10's threshold defaults: what a plugin sees when a test does not say otherwise. */
export const DEFAULT_THRESHOLDS: Thresholds = Object.freeze({
  suspicious_additions: 500,
  suspicious_deletions: 1000,
  max_additions_per_min: 100,
  max_deletions_per_min: 500,
  min_time_delta_seconds: 60,
});

export function pluginConfigView(overrides: TestConfig = {}): PluginConfigView {
  return {
    thresholds: { ...DEFAULT_THRESHOLDS, ...overrides.thresholds },
    exclude_files: overrides.exclude_files ?? [],
    strategies: { disabled: overrides.disabled ?? [] },
    ai: {
      enabled: false,
      provider: 'openai',
      key: null,
      baseUrl: null,
      model: null,
      batch_size: 10,
      retry_count: 3,
      retry_backoff_initial_ms: 1000,
      timeout_ms: 30_000,
      max_items_per_job: 50,
      max_chars_per_job: 60_000,
      ...overrides.ai,
    },
  };
}

export function engineConfig(overrides: TestConfig = {}): EngineConfig {
  return {
    limits: {
      clone_timeout_seconds: 120,
      max_repo_size_mb: 2048,
      max_page_bytes: 10 * 1024 * 1024,
      fetch_timeout_seconds: 20,
      strategy_timeout_seconds: overrides.strategyTimeoutSeconds ?? 30,
    },
    git: { depth: 0 },
  };
}

/** What a test may change of the configuration a plugin sees. */
export interface TestConfig {
  readonly thresholds?: Partial<Thresholds>;
  readonly exclude_files?: readonly string[];
  readonly disabled?: readonly string[];
  readonly ai?: Partial<PluginConfigView['ai']>;
  readonly strategyTimeoutSeconds?: number;
}
