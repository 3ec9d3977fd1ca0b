import {
  CadenceError,
  definePlugin,
  REFINE_STAGE,
  type AiReport,
  type AiVerdict,
  type AnalysisContext,
  type AnalysisResult,
  errorMessage,
} from '@cadence-detect/plugin-sdk';
import { applyVerdicts } from './adjustment.js';
import { collectItems, type FlaggedItem } from './flagged-items.js';
import { AI_OPTIONS, aiSettings, type AiSettings } from './options.js';
import { createProvider, DEFAULT_MODELS } from './provider.js';
import { withRetries } from './retry.js';
import { buildPrompt, parseVerdicts } from './verdicts.js';

export { applyVerdicts, blend, ITEM_WEIGHT, OVERALL_WEIGHT } from './adjustment.js';
export { parseVerdicts, buildPrompt } from './verdicts.js';
export { DEFAULT_MODELS, DEFAULT_BASE_URLS } from './provider.js';
export { AI_OPTIONS, aiSettings, type AiOptions, type AiSettings } from './options.js';

/**
 * Refines the result after all strategies: sends what they flagged to the configured provider in
 * batches and blends the verdicts in. Never fails the job: an AI failure leaves the heuristic result
 * and says why in `result.ai.error`. Cancelling the job aborts the call in flight.
 */
export default definePlugin({
  name: 'ai-assist',
  meta: {
    description: 'A second opinion from a language model on what the strategies flagged.',
    options: AI_OPTIONS,
    configKey: 'ai',
  },
  apply(hooks, environment) {
    // Checked against AI_OPTIONS by the host (or the testkit) before apply runs, defaults applied;
    // a duration no timer holds stops the start here.
    const ai = aiSettings(environment.options);
    // Last: the second opinion reads the result every other refiner made.
    hooks.refineResult.tapPromise(
      { name: 'ai-assist', stage: REFINE_STAGE.SECOND_OPINION },
      async (result, context) => {
        if (!ai.enabled) return result;
        const model = ai.model ?? DEFAULT_MODELS[ai.provider];
        const report: AiReport = { provider: ai.provider, model, verdicts: [], items_sent: 0 };
        const items = await collectItems(result, context, ai);
        if (items.length === 0) return { ...result, ai: report };
        const scrub = (text: string): string => (ai.key ? text.split(ai.key).join('****') : text);
        context.events.emit({ event: 'ai_analysis', in_progress: true, items: items.length });
        try {
          if (!ai.key)
            throw new CadenceError('ERR_AI_API_KEY_INVALID', {
              message: 'AI analysis is enabled but no key is configured (ai.key / CADENCE_AI_KEY)',
            });
          const { verdicts, tokens, malformed } = await judge(items, context, ai, scrub);
          const refined = applyVerdicts(result, items, verdicts);
          context.events.emit({ event: 'ai_analysis', in_progress: false, items: items.length });
          return {
            ...refined,
            ai: {
              ...report,
              verdicts,
              items_sent: items.length,
              ...(tokens ? { tokens } : {}),
              ...(malformed > 0 ? { malformed_answers: malformed } : {}),
            },
          };
        } catch (error) {
          if (context.signal.aborted) throw error;
          const failure =
            error instanceof CadenceError
              ? error
              : new CadenceError('ERR_AI_PROVIDER_UNAVAILABLE', {
                  message: scrub(errorMessage(error)),
                });
          context.logger.warn('AI analysis skipped', { code: failure.code, error: scrub(failure.message) });
          // Usually brief (a provider away, a limit reached): the next identical analysis asks again.
          context.keepOutOfCache?.(`the AI analysis failed (${failure.code})`);
          context.events.emit({ event: 'ai_analysis', in_progress: false, error: failure.code });
          return {
            ...result,
            ai: { ...report, items_sent: items.length, error: { code: failure.code, message: scrub(failure.message) } },
          };
        }
      },
    );
  },
});

async function judge(
  items: readonly FlaggedItem[],
  context: AnalysisContext,
  ai: AiSettings,
  scrub: (text: string) => string,
): Promise<{ verdicts: AiVerdict[]; tokens: { input: number; output: number } | null; malformed: number }> {
  const provider = await createProvider(ai);
  const verdicts: AiVerdict[] = [];
  let tokens = null as { input: number; output: number } | null;
  let malformed = 0;
  for (let start = 0; start < items.length; start += ai.batch_size) {
    const batch = items.slice(start, start + ai.batch_size);
    const completion = await withRetries(
      () => provider.complete(buildPrompt(context.kind, batch), context.signal),
      { retries: ai.retry_count, initialBackoffMs: ai.retry_backoff_initial_ms },
      context.signal,
      scrub,
    );
    const parsed = parseVerdicts(completion.text, batch);
    verdicts.push(...parsed.verdicts);
    malformed += parsed.malformed;
    if (completion.tokens)
      tokens = {
        input: (tokens?.input ?? 0) + completion.tokens.input,
        output: (tokens?.output ?? 0) + completion.tokens.output,
      };
  }
  return { verdicts, tokens, malformed };
}

export type { AnalysisResult };
