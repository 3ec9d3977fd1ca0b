import type { Thresholds } from './commit.js';

/** The AI settings a plugin may read (configuration `ai.*`, docs/configuration.md). */
export interface AiSettings {
  readonly enabled: boolean;
  readonly provider: 'openai' | 'anthropic';
  /**
   * Always null in the view every plugin sees: a third-party strategy must not read the user's AI
   * key. The key goes to the AI plugin alone, in its own options.
   * @since 1.5 (null)
   */
  readonly key: string | null;
  readonly baseUrl: string | null;
  readonly model: string | null;
  readonly batch_size: number;
  readonly retry_count: number;
  /** Milliseconds, parsed from a duration such as `1s`. */
  readonly retry_backoff_initial_ms: number;
  /** Per-call timeout in milliseconds. */
  readonly timeout_ms: number;
  /** Caps on what one job sends to the provider. */
  readonly max_items_per_job: number;
  readonly max_chars_per_job: number;
}

/**
 * The read-only part of the effective configuration that plugins see. The host's full configuration
 * has more keys; plugins must not depend on those.
 */
export interface PluginConfigView {
  readonly thresholds: Thresholds;
  readonly exclude_files: readonly string[];
  /**
   * Globs over author names and e-mails whose commits count as automation (always set by a 1.7 host).
   * @since 1.7
   */
  readonly exclude_authors?: readonly string[];
  readonly ai: AiSettings;
  readonly strategies: { readonly disabled: readonly string[] };
}
