import type { AiSettings } from './options.js';

export interface Completion {
  readonly text: string;
  readonly tokens?: { readonly input: number; readonly output: number };
}

export interface Prompt {
  readonly system: string;
  readonly user: string;
}

/** One provider's chat call, with the SDK's own retries off: ours apply (retry.ts). */
export interface AiProvider {
  readonly name: 'openai' | 'anthropic';
  readonly model: string;
  complete(prompt: Prompt, signal: AbortSignal): Promise<Completion>;
}

export const DEFAULT_MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-3-5-haiku-latest' } as const;
/** docs/configuration.md (ai.baseUrl): openai's base URL carries /v1, anthropic's is the bare host. */
export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
} as const;
const MAX_OUTPUT_TOKENS = 2048;

/**
 * Builds the provider client with everything passed explicitly (key, base URL, organization…):
 * the SDKs' own environment variables (OPENAI_API_KEY, ANTHROPIC_BASE_URL, …) are never read.
 * The SDK is imported here, when AI analysis runs: loading both at start-up cost every command
 * (even `cadence version`) most of a second.
 */
export async function createProvider(settings: AiSettings): Promise<AiProvider> {
  const model = settings.model ?? DEFAULT_MODELS[settings.provider];
  const baseURL = settings.baseUrl ?? DEFAULT_BASE_URLS[settings.provider];
  const common = { apiKey: settings.key ?? '', baseURL, maxRetries: 0, timeout: settings.timeout_ms };
  if (settings.provider === 'anthropic') {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ ...common, authToken: null });
    return {
      name: 'anthropic',
      model,
      async complete(prompt, signal) {
        const message = await client.messages.create(
          {
            model,
            max_tokens: MAX_OUTPUT_TOKENS,
            system: prompt.system,
            messages: [{ role: 'user', content: prompt.user }],
          },
          { signal },
        );
        const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        // The answer is a remote server's (a compatible one may leave usage out), whatever the SDK's types say.
        const usage = message.usage as Partial<typeof message.usage> | undefined;
        return { text, tokens: { input: usage?.input_tokens ?? 0, output: usage?.output_tokens ?? 0 } };
      },
    };
  }
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({ ...common, organization: null, project: null, webhookSecret: null });
  return {
    name: 'openai',
    model,
    async complete(prompt, signal) {
      const completion = await client.chat.completions.create(
        {
          model,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: prompt.system },
            { role: 'user', content: prompt.user },
          ],
        },
        { signal },
      );
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- A compatible server may answer a choice without its message
      const text = completion.choices[0]?.message?.content ?? '';
      const usage = completion.usage;
      return { text, ...(usage ? { tokens: { input: usage.prompt_tokens, output: usage.completion_tokens } } : {}) };
    },
  };
}
