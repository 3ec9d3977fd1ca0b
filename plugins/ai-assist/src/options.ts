import { Type } from 'typebox';
import type { AiSettings } from '@cadence/plugin-sdk';

const Nullable = (inner: ReturnType<typeof Type.String>) => Type.Union([inner, Type.Null()], { default: null });

/**
 * The plugin's options (plugin API 1.1): its own settings live with it. The host gives it the
 * configuration's `ai:` section (CADENCE_AI_* in the environment) in this shape, durations in
 * milliseconds; `plugin_options.ai-assist` sets the same keys.
 */
export const AI_OPTIONS = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    provider: Type.Union([Type.Literal('openai'), Type.Literal('anthropic')], { default: 'openai' }),
    key: Nullable(Type.String()),
    baseUrl: Nullable(Type.String()),
    model: Nullable(Type.String()),
    batch_size: Type.Integer({ minimum: 1, default: 10 }),
    retry_count: Type.Integer({ minimum: 0, default: 3 }),
    retry_backoff_initial_ms: Type.Number({ minimum: 0, default: 1000 }),
    timeout_ms: Type.Number({ minimum: 1, default: 30_000 }),
    max_items_per_job: Type.Integer({ minimum: 1, default: 50 }),
    max_chars_per_job: Type.Integer({ minimum: 1, default: 60_000 }),
  },
  { additionalProperties: false },
);

/** The options as the plugin reads them: the same shape plugins see as `config.ai`. */
export type AiOptions = AiSettings;
