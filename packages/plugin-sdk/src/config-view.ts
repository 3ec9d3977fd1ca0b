import type { Thresholds } from './commit.js';

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
  readonly strategies: { readonly disabled: readonly string[] };
}
