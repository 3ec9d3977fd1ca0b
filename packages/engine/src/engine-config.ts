/**
 * The part of the effective configuration the engine reads besides the plugin view.
 * @cadence-detect/config's CadenceConfig has this shape; the engine takes it structurally so that it
 * depends on the configuration's keys, not on how they were loaded.
 */
export interface EngineConfig {
  readonly limits: {
    readonly clone_timeout_seconds: number;
    readonly max_repo_size_mb: number;
    /** Blobs above this many MiB count as binary without a line diff; 16 when absent. */
    readonly max_diff_blob_mb?: number;
    readonly max_page_bytes: number;
    readonly fetch_timeout_seconds: number;
    readonly strategy_timeout_seconds: number;
    /** Above this many counted text files at HEAD the lines are not counted; 20,000 when absent. */
    readonly max_line_files?: number;
    /** Squashed requests whose own commits are read from their head refs; 500 when absent. */
    readonly max_request_heads?: number;
  };
  /** Lines at HEAD, survival and rework (docs/lines.md); on when absent. */
  readonly lines?: { readonly enabled: boolean };
  readonly git: { readonly depth: number };
  /** Repository mirrors (absent: none, a fresh clone per job). */
  readonly cache?: { readonly repositories_dir: string | null; readonly repositories_max_size: string | number };
  /** Where ai_share turns into an assessment; the defaults when absent. */
  readonly assessment?: { readonly suspicious: number; readonly likely_ai_generated: number };
}
