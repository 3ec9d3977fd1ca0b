import type { AddedLinesReader } from './added-lines.js';
import type { RepositoryContext, WebsiteContext } from './context.js';
import type { OptionsOf, PluginOptions } from './options.js';
import type { SourceKind } from './source.js';

/**
 * What a strategy says about itself, readable without running it (like an ESLint rule's `meta`):
 * `/api/plugins` and `cadence plugins` list this.
 */
export interface StrategyMeta<K extends SourceKind = SourceKind, M extends string = string> {
  /** Unique across all plugins; `strategies.disabled` names it. Lower-case, dash-separated. */
  readonly name: string;
  /** A family, e.g. `velocity`, `timing`, `size`, `website-signature`, `ai`. */
  readonly category: string;
  /** One line. */
  readonly description: string;
  readonly appliesTo: K;
  /** How much a finding of this strategy counts, 0 to 1: the confidence of a detection is its score times this. */
  readonly weight: number;
  readonly docsUrl?: string;
  /**
   * The strategy's per-commit probabilities (`StrategyOutcome.probabilities`) are calibrated
   * probabilities that a commit was made with an assistant. The engine then takes a commit's
   * confidence from them, and the other strategies' findings become its reasons (docs/scoring.md).
   * @since 1.2
   */
  readonly calibrated?: boolean;
  /**
   * The strategy's messages by id, as ESLint rules carry theirs: a finding names one
   * (`messageId`) and gives its `data`, and `{{name}}` in the template is replaced by `data.name`.
   * Reports, SARIF and the testkit then key on the id, whatever the wording becomes. `M`: the ids,
   * inferred by `defineStrategy` from this object, so a finding's `messageId` that names no message
   * does not compile.
   * @since 1.11 (`M` since 2.0)
   */
  readonly messages?: Readonly<Record<M, string>>;
}

/**
 * How a finding knows what it says: `explicit` when the history says so outright (a
 * trailer, an agent account, a note), `inferred` when it is read from how the commit looks.
 * `automation`: the commit was made by an automation account (dependabot, renovate, a
 * release bot), not a person nor an assistant: it is never flagged and `ai_share` leaves it out
 * (an explicit finding on the same commit wins).
 * @since 1.2
 */
export type Evidence = 'explicit' | 'inferred' | 'automation';

/** One thing a strategy found. `M`: its strategy's message ids (any string when untyped). */
export interface Finding<M extends string = string> {
  /** How strongly this indicates machine generation, 0 to 1. */
  readonly score: number;
  /**
   * A human-readable reason that names the measured value and the threshold. With a `messageId`
   * it may be left out: the message is then formatted from `meta.messages[messageId]`
   * and `data`.
   * @since 1.11
   */
  readonly message?: string;
  /**
   * The id of one of the strategy's `meta.messages`.
   * @since 1.11 (typed as one of them since 2.0)
   */
  readonly messageId?: M;
  /**
   * The values of the message's `{{placeholders}}`.
   * @since 1.11
   */
  readonly data?: Readonly<Record<string, string | number>>;
  /** Full hash of the commit the finding is about (repository strategies). */
  readonly commit?: string;
  /** The element or passage the finding is about (website strategies): a path and a bounded excerpt. */
  readonly element?: string;
  /** The numbers behind the finding, for reports. */
  readonly measured?: Readonly<Record<string, number>>;
  /** Defaults to `inferred`. */
  readonly evidence?: Evidence;
  /** The assistant the finding names (explicit attribution), e.g. `Claude Code`. */
  readonly assistant?: string;
  /**
   * An explicit finding on a squash commit that its request's own commits carry: the request's
   * number (RepositoryContext.requestCommits).
   * @since 1.17
   */
  readonly viaRequest?: number;
}

/** A strategy may return findings alone, or findings with its own score and metrics. */
export interface StrategyOutcome<M extends string = string> {
  readonly findings: readonly Finding<M>[];
  /** The strategy's score, 0 to 1; when absent, the highest finding score (0 with no findings). */
  readonly score?: number;
  /** Numbers merged into `result.metrics`, prefixed with the strategy name. */
  readonly metrics?: Readonly<Record<string, number>>;
  /**
   * A calibrated strategy's probability for every commit it scored (full hash to 0..1), flagged or
   * not: the repository's `ai_share` is their mean. Read only from strategies whose meta says
   * `calibrated: true`.
   */
  readonly probabilities?: ReadonlyMap<string, number>;
  /**
   * The probability at or above which a commit counts as flagged (a suspicion). Frozen with the
   * model that produced the probabilities.
   */
  readonly flagAt?: number;
  /**
   * Repository strategies: the model's probability for a commit it knows nothing about
   * (its calibration prior). Other strategies' findings move a commit from at least this, in
   * log-odds (docs/scoring.md); 0.05 when absent.
   * @since 1.7
   */
  readonly prior?: number;
  /**
   * A calibrated strategy's `covers` names the strategies whose evidence its probability already
   * includes (they only explain it). Every other strategy moves the page score (website strategies)
   * or its commit's probability (repository strategies, since 1.7) in log-odds
   * (docs/website-analysis.md, docs/scoring.md).
   * @since 1.2
   */
  readonly covers?: readonly string[];
  /** Website strategies: the page score is at least this (e.g. chat-assistant leftovers on the page). */
  readonly floor?: number;
}

export type StrategyReturn<M extends string = string> = readonly Finding<M>[] | StrategyOutcome<M>;

/**
 * `O`: the options its `context.options` carries (its plugin's); untyped by default.
 * @since 1.6 (`O`)
 */
export interface RepositoryStrategy<O extends object = PluginOptions> {
  readonly meta: StrategyMeta<'repository'>;
  /**
   * What it reads of each commit's added lines (AddedLinesReader): the strategy then runs once the
   * line pass has read them, its time budget counted from there, and finds one number per commit in
   * `context.addedLineReadings` (absent when lines are off or could not be read).
   * @since 2.0
   */
  readonly addedLines?: AddedLinesReader;
  analyze(context: RepositoryContext<O>): StrategyReturn | Promise<StrategyReturn>;
}

export interface WebsiteStrategy<O extends object = PluginOptions> {
  readonly meta: StrategyMeta<'website'>;
  analyze(context: WebsiteContext<O>): StrategyReturn | Promise<StrategyReturn>;
}

export type Strategy<O extends object = PluginOptions> = RepositoryStrategy<O> | WebsiteStrategy<O>;

/**
 * The context a strategy of kind `K` is given; `O` is its plugin's options.
 * @since 1.6
 */
export type ContextOf<K extends SourceKind, O extends object = PluginOptions> = K extends 'repository'
  ? RepositoryContext<O>
  : WebsiteContext<O>;

/** The strategy `defineStrategy` makes of a definition of kind `K`. */
export type StrategyOf<K extends SourceKind, O extends object = PluginOptions> = K extends 'repository'
  ? RepositoryStrategy<O>
  : WebsiteStrategy<O>;

/**
 * What `defineStrategy` takes: the metadata and the function that runs. `M`: the ids of
 * `meta.messages`, which the findings' `messageId` must name.
 */
export interface StrategyDefinition<K extends SourceKind, O extends object = PluginOptions, M extends string = string> {
  readonly meta: StrategyMeta<K, M>;
  /** Repository strategies: what they read of each commit's added lines (RepositoryStrategy.addedLines). */
  readonly addedLines?: K extends 'repository' ? AddedLinesReader : never;
  // NoInfer: the ids come from `meta.messages` alone, never from the ids the findings name.
  analyze(context: ContextOf<K, O>): StrategyReturn<NoInfer<M>> | Promise<StrategyReturn<NoInfer<M>>>;
}

/**
 * Declares a strategy. `K` is inferred from `meta.appliesTo` before the `analyze` function is
 * typed (context-sensitive functions are inferred last), so `analyze(context)` needs no annotation:
 * `context` is a RepositoryContext or a WebsiteContext accordingly.
 *
 * given its plugin's options schema first, `defineStrategy(schema, { meta, analyze })`
 * also types `context.options` as that plugin's options (OptionsOf), so a strategy reads
 * `context.options.min_lines` as a number, default applied, and reading an option the schema lacks
 * does not compile. The plugin that registers it must declare that schema (its `registrar.add`
 * refuses a strategy that reads options its plugin does not have). The schema is read for its type
 * alone: the host gives a strategy the options of the plugin that registered it.
 *
 * The ids of `meta.messages` are inferred too: a finding whose `messageId` names none of them
 * does not compile (as typescript-eslint's `RuleCreator` types an ESLint rule's `messageId`).
 * @since 1.6 (message ids typed since 2.0)
 */
export function defineStrategy<K extends SourceKind, M extends string = string>(
  strategy: StrategyDefinition<K, PluginOptions, M>,
): StrategyOf<K>;
export function defineStrategy<S extends object, K extends SourceKind, M extends string = string>(
  options: S,
  strategy: StrategyDefinition<K, OptionsOf<S>, M>,
): StrategyOf<K, OptionsOf<S>>;
export function defineStrategy(...args: [unknown] | [unknown, unknown]): unknown {
  return args.length === 2 ? args[1] : args[0];
}

/** Normalizes what a strategy returned. */
export function toOutcome(value: StrategyReturn): StrategyOutcome {
  return Array.isArray(value) ? { findings: value as readonly Finding[] } : (value as StrategyOutcome);
}

/**
 * A message template with its `{{placeholders}}` filled from `data`, as ESLint formats a
 * rule's messages: a placeholder without a value stays as written.
 * @since 1.11
 */
export function formatMessage(template: string, data: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(data, name) ? String(data[name]) : whole,
  );
}
