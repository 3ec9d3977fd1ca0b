import type { AiVerdict } from '@cadence-detect/plugin-sdk';
import type { FlaggedItem } from './flagged-items.js';
import type { Prompt } from './provider.js';

const SYSTEM = `You review material that heuristics flagged as possibly machine-generated (written by an AI model or coding assistant).
For each item, judge whether it was machine-generated. Answer with JSON only, exactly:
{"verdicts":[{"item":"<item id>","assessment":"ai_generated"|"human"|"uncertain","confidence":<0..1>,"reasoning":"<one or two sentences>","indicators":["<short indicator>", ...]}]}
One verdict per item id given. Base the judgement on the content, not on the heuristics alone.`;

export function buildPrompt(kind: 'repository' | 'website', items: readonly FlaggedItem[]): Prompt {
  const what = kind === 'repository' ? 'suspicious commits' : 'flagged passages of a web page';
  const body = items.map((item) => `### item ${item.id}\n${item.text}`).join('\n\n');
  return { system: SYSTEM, user: `Judge these ${items.length} ${what}.\n\n${body}` };
}

const ASSESSMENTS = new Set(['ai_generated', 'human', 'uncertain']);

/**
 * The verdicts of a model's answer, for the ids that were asked about. A malformed answer (not
 * JSON, missing fields, unknown ids) yields no verdict for the affected items: it is counted, never
 * thrown.
 */
export function parseVerdicts(
  text: string,
  asked: readonly FlaggedItem[],
): { verdicts: AiVerdict[]; malformed: number } {
  const ids = new Set(asked.map((i) => i.id));
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      text
        .trim()
        .replace(/^```(?:json)?\s*/i, '')
        .replace(/\s*```$/, ''),
    );
  } catch {
    return { verdicts: [], malformed: asked.length };
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { verdicts?: unknown } | null)?.verdicts;
  if (!Array.isArray(list)) return { verdicts: [], malformed: asked.length };
  const verdicts: AiVerdict[] = [];
  const seen = new Set<string>();
  for (const entry of list) {
    // A model's answer: an entry may be anything, null among them.
    if (entry === null || typeof entry !== 'object') continue;
    const v = entry as Record<string, unknown>;
    const item = typeof v.item === 'string' ? v.item : typeof v.id === 'string' ? v.id : null;
    const confidence = typeof v.confidence === 'number' ? v.confidence : Number.NaN;
    if (
      !item ||
      !ids.has(item) ||
      seen.has(item) ||
      typeof v.assessment !== 'string' ||
      !ASSESSMENTS.has(v.assessment) ||
      !(confidence >= 0 && confidence <= 1)
    )
      continue;
    seen.add(item);
    verdicts.push({
      item,
      assessment: v.assessment as AiVerdict['assessment'],
      confidence,
      reasoning: typeof v.reasoning === 'string' ? v.reasoning.slice(0, 1000) : '',
      indicators: Array.isArray(v.indicators)
        ? v.indicators
            .filter((x): x is string => typeof x === 'string')
            .slice(0, 10)
            .map((x) => x.slice(0, 200))
        : [],
    });
  }
  return { verdicts, malformed: asked.length - verdicts.length };
}
