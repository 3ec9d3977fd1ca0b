import { Type } from '@cadence-detect/plugin-sdk/typebox';
import type { AiSettings, OptionsOf } from '@cadence-detect/plugin-sdk';

const nullableString = Type.Union([Type.String(), Type.Null()], { default: null });

/**
 * The plugin's options: its own settings live with it. The host gives it the
 * configuration's `ai:` section (CADENCE_AI_* in the environment) in this shape, durations in
 * milliseconds; `plugin_options.ai-assist` sets the same keys. A typebox schema, so the options the
 * plugin reads are typed by it. typebox is loaded by then in every process that loads
 * plugins (the configuration's schema, the loader), and `cadence version` loads no plugin.
 */
export const AI_OPTIONS = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    provider: Type.Enum(['openai', 'anthropic'], { default: 'openai' }),
    key: Type.Union([Type.String(), Type.Null()], { default: null, secret: true }),
    baseUrl: nullableString,
    model: nullableString,
    batch_size: Type.Integer({ minimum: 1, default: 10 }),
    retry_count: Type.Integer({ minimum: 0, default: 3 }),
    retry_backoff_initial_ms: Type.Number({ minimum: 0, default: 1000 }),
    timeout_ms: Type.Number({ exclusiveMinimum: 0, default: 30_000 }),
    max_items_per_job: Type.Integer({ minimum: 1, default: 50 }),
    max_chars_per_job: Type.Integer({ minimum: 1, default: 60_000 }),
  },
  { additionalProperties: false },
);

/** The options as the plugin reads them: the same shape plugins see as `config.ai` (AiSettings). */
export type AiOptions = OptionsOf<typeof AI_OPTIONS>;

// The options are the `ai:` section's keys: a schema that drifted from AiSettings fails the build here.
const sameShape: [AiOptions, AiSettings] extends [AiSettings, AiOptions] ? true : never = true;
void sameShape;
