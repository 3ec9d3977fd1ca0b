import { Type, Value } from '@cadence-detect/plugin-sdk/typebox';
import { CadenceError, isRecord } from '@cadence-detect/errors';
import { formatMessage, type Finding, type Strategy, type StrategyOutcome } from '@cadence-detect/plugin-sdk';

const MetaSchema = Type.Object({
  name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 64 }),
  category: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.String({ minLength: 1, maxLength: 500 }),
  appliesTo: Type.Union([Type.Literal('repository'), Type.Literal('website')]),
  weight: Type.Number({ minimum: 0, maximum: 1 }),
  calibrated: Type.Optional(Type.Boolean()),
  messages: Type.Optional(
    Type.Record(
      Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]*$', maxLength: 64 }),
      Type.String({ minLength: 1, maxLength: 2000 }),
    ),
  ),
});

const FindingSchema = Type.Object({
  score: Type.Number({ minimum: 0, maximum: 1 }),
  message: Type.Optional(Type.String({ minLength: 1 })),
  messageId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  data: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  commit: Type.Optional(Type.String()),
  element: Type.Optional(Type.String()),
  measured: Type.Optional(Type.Record(Type.String(), Type.Number())),
  evidence: Type.Optional(Type.Union([Type.Literal('explicit'), Type.Literal('inferred'), Type.Literal('automation')])),
  assistant: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  viaRequest: Type.Optional(Type.Integer({ minimum: 1 })),
});

const OutcomeSchema = Type.Object({
  findings: Type.Array(FindingSchema),
  score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  metrics: Type.Optional(Type.Record(Type.String(), Type.Number())),
  flagAt: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  covers: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 })),
  floor: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
});

/** Refuses a strategy whose metadata is incomplete: tooling reads the metadata without running it. */
export function validateStrategyMeta(strategy: Strategy, owner: string): void {
  // A plugin's strategy is whatever its JavaScript registered, whatever the type says.
  const given = strategy as Partial<Strategy> | null | undefined;
  const meta: unknown = given?.meta;
  if (typeof given?.analyze !== 'function' || !Value.Check(MetaSchema, meta)) {
    const first = Value.Check(MetaSchema, meta) ? undefined : Value.Errors(MetaSchema, meta)[0];
    const where = first
      ? `meta${first.instancePath.replaceAll('/', '.')}: ${first.message}`
      : 'analyze is not a function';
    throw new CadenceError('ERR_INTERNAL', { message: `${owner} registered an invalid strategy (${where})` });
  }
  const reader: unknown = Reflect.get(strategy, 'addedLines');
  if (reader === undefined) return;
  const wrong =
    strategy.meta.appliesTo !== 'repository'
      ? 'addedLines is for repository strategies'
      : !isRecord(reader)
        ? 'addedLines is not an object'
        : typeof reader.key !== 'string' || !reader.key
          ? 'addedLines.key is not a non-empty string'
          : typeof reader.read !== 'function'
            ? 'addedLines.read is not a function'
            : null;
  if (wrong) throw new CadenceError('ERR_INTERNAL', { message: `${owner} registered an invalid strategy (${wrong})` });
}

/**
 * A strategy's return value comes from third-party code: it is checked before anything reads it,
 * so garbage becomes that strategy's recorded error instead of a broken result.
 */
export function validateOutcome(value: unknown, messages: Readonly<Record<string, string>> = {}): CheckedOutcome {
  const outcome = Array.isArray(value) ? { findings: value } : value;
  if (Value.Check(OutcomeSchema, outcome)) {
    const checked: StrategyOutcome = outcome;
    checkProbabilities(checked.probabilities);
    return { ...checked, findings: checked.findings.map((finding, index) => withMessage(finding, index, messages)) };
  }
  const first = Value.Errors(OutcomeSchema, outcome)[0];
  const where = first ? `${first.instancePath || '(root)'}: ${first.message}` : 'not an outcome';
  throw new Error(`returned an invalid result (${where})`);
}

/** An outcome whose findings all carry their message (formatted from `meta.messages` where they name one). */
export type CheckedOutcome = Omit<StrategyOutcome, 'findings'> & {
  readonly findings: readonly (Finding & { readonly message: string })[];
};

/** A finding's message: its own, or its `messageId`'s template with its `data` (an unknown id is the strategy's error). */
function withMessage(
  finding: Finding,
  index: number,
  messages: Readonly<Record<string, string>>,
): Finding & { readonly message: string } {
  if (finding.messageId === undefined) {
    if (finding.message === undefined)
      throw new Error(`returned an invalid result (/findings/${index}: neither message nor messageId)`);
    return { ...finding, message: finding.message };
  }
  const template = Object.hasOwn(messages, finding.messageId) ? messages[finding.messageId] : undefined;
  if (template === undefined)
    throw new Error(
      `returned an invalid result (/findings/${index}/messageId: ${JSON.stringify(finding.messageId.slice(0, 64))} is not one of its meta.messages)`,
    );
  return { ...finding, message: formatMessage(template, finding.data) };
}

/** Probabilities are a Map (a 50,000-commit history would make a slow schema check): checked by hand. */
function checkProbabilities(probabilities: unknown): void {
  if (probabilities === undefined) return;
  if (!(probabilities instanceof Map)) throw new Error('returned an invalid result (/probabilities: not a Map)');
  const entries: Iterable<[unknown, unknown]> = probabilities;
  for (const [hash, p] of entries) {
    if (typeof hash !== 'string' || typeof p !== 'number' || !(p >= 0 && p <= 1)) {
      throw new Error(`returned an invalid result (/probabilities: ${String(hash).slice(0, 40)} is not a probability)`);
    }
  }
}
