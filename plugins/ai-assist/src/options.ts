import type { AiSettings } from '@cadence-detect/plugin-sdk';

const nullableString = { anyOf: [{ type: 'string' }, { type: 'null' }], default: null } as const;

/**
 * The plugin's options (plugin API 1.1): its own settings live with it. The host gives it the
 * configuration's `ai:` section (CADENCE_AI_* in the environment) in this shape, durations in
 * milliseconds; `plugin_options.ai-assist` sets the same keys. A plain JSON Schema, which the host
 * checks as it checks a typebox one: importing typebox here would load its some 700 modules into
 * every command, `cadence version` included.
 */
export const AI_OPTIONS = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', default: false },
    provider: { enum: ['openai', 'anthropic'], default: 'openai' },
    key: nullableString,
    baseUrl: nullableString,
    model: nullableString,
    batch_size: { type: 'integer', minimum: 1, default: 10 },
    retry_count: { type: 'integer', minimum: 0, default: 3 },
    retry_backoff_initial_ms: { type: 'number', minimum: 0, default: 1000 },
    timeout_ms: { type: 'number', exclusiveMinimum: 0, default: 30_000 },
    max_items_per_job: { type: 'integer', minimum: 1, default: 50 },
    max_chars_per_job: { type: 'integer', minimum: 1, default: 60_000 },
  },
  additionalProperties: false,
} as const;

/** The options as the plugin reads them: the same shape plugins see as `config.ai`. */
export type AiOptions = AiSettings;
