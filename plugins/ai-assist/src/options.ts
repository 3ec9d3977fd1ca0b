import { Type } from '@cadence-detect/plugin-sdk/typebox';
import { parseDuration, type OptionsOf } from '@cadence-detect/plugin-sdk';
import { DEFAULT_BASE_URLS } from './provider.js';

const nullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { default: null, description });

/**
 * The plugin's options: the configuration's `ai:` section, its own (`meta.configKey: 'ai'`), read
 * from the environment as `CADENCE_AI_<OPTION>` (and the interface's `BATCH_SIZE`, `RETRY_COUNT`,
 * `RETRY_BACKOFF_INITIAL`, named in `env`). The host keeps the file key and never reads the values;
 * other plugins never see them. A typebox schema, so the options the plugin reads are typed by it.
 */
export const AI_OPTIONS = Type.Object(
  {
    enabled: Type.Boolean({ default: false }),
    provider: Type.Enum(['openai', 'anthropic'], { default: 'openai' }),
    key: Type.Union([Type.String(), Type.Null()], { default: null, secret: true }),
    baseUrl: nullableString(
      `the provider's API address (unset: ${DEFAULT_BASE_URLS.openai}, ${DEFAULT_BASE_URLS.anthropic})`,
    ),
    model: nullableString("the provider's default model when unset"),
    batch_size: Type.Integer({ minimum: 1, default: 10, env: ['BATCH_SIZE'], description: 'items per call' }),
    retry_count: Type.Integer({ minimum: 0, default: 3, env: ['RETRY_COUNT'] }),
    /** A duration: `500ms`, `1s`, `2m`, or milliseconds. */
    retry_backoff_initial: Type.Union([Type.String(), Type.Number({ minimum: 0 })], {
      default: '1s',
      env: ['RETRY_BACKOFF_INITIAL'],
      description: 'the first wait before a retry (doubled for each next one)',
    }),
    timeout_seconds: Type.Number({ exclusiveMinimum: 0, default: 30, description: 'per call' }),
    max_items_per_job: Type.Integer({
      minimum: 1,
      default: 50,
      description: 'flagged commits or passages sent per job, at most',
    }),
    max_chars_per_job: Type.Integer({ minimum: 1, default: 60_000, description: 'characters sent per job, at most' }),
  },
  { additionalProperties: false },
);

/** The options as the user gave them, defaults applied. */
export type AiOptions = OptionsOf<typeof AI_OPTIONS>;

/** The options as the plugin works with them: durations in milliseconds. */
export interface AiSettings extends Omit<AiOptions, 'retry_backoff_initial' | 'timeout_seconds'> {
  readonly retry_backoff_initial_ms: number;
  readonly timeout_ms: number;
}

/** The longest a timer holds (2^31 - 1 ms, about 24 days): a longer wait would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The settings, or a refusal naming the key: a back-off that is no duration, or a wait a timer
 * cannot hold (the back-off doubles per retry: the last one must fit too). Thrown when the plugin
 * starts, so the command or the server stops with the reason (exit 2) before any job.
 */
export function aiSettings(options: AiOptions): AiSettings {
  const { retry_backoff_initial: backoff, timeout_seconds: timeoutSeconds, ...rest } = options;
  const backoffMs = parseDuration(backoff);
  const maxSeconds = Math.floor(MAX_TIMER_MS / 1000);
  const refuse = (key: string, text: string): never => {
    throw new Error(`Invalid configuration: ai.${key} ${text}`);
  };
  if (Number.isNaN(backoffMs)) refuse('retry_backoff_initial', 'must be a duration such as 500ms, 1s or 2m');
  if (backoffMs > MAX_TIMER_MS)
    refuse('retry_backoff_initial', `must be at most ${maxSeconds}s (the longest a timer holds)`);
  if (backoffMs * 2 ** Math.max(options.retry_count - 1, 0) > MAX_TIMER_MS)
    refuse(
      'retry_count',
      `is too large for ai.retry_backoff_initial ${String(backoff)}: the back-off doubles per retry and the last one would exceed ${maxSeconds} seconds (the longest a timer holds)`,
    );
  const timeoutMs = Math.round(timeoutSeconds * 1000);
  if (timeoutMs > MAX_TIMER_MS)
    refuse(
      'timeout_seconds',
      `must be at most ${maxSeconds} seconds (about 24 days: the longest a timer holds), got ${timeoutSeconds}`,
    );
  return { ...rest, retry_backoff_initial_ms: backoffMs, timeout_ms: timeoutMs };
}
