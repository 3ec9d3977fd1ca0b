import type { RepositoryContext, WebsiteContext } from './context.js';
import type { SourceKind } from './source.js';

/**
 * What a strategy says about itself, readable without running it (like an ESLint rule's `meta`):
 * `/api/plugins` and `cadence plugins` list this.
 */
export interface StrategyMeta<K extends SourceKind = SourceKind> {
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
   * API 1.2: the strategy's per-commit probabilities (`StrategyOutcome.probabilities`) are calibrated
   * probabilities that a commit was made with an assistant. The engine then takes a commit's
   * confidence from them, and the other strategies' findings become its reasons (docs/scoring.md).
   */
  readonly calibrated?: boolean;
}

/**
 * How a finding knows what it says (API 1.2): `explicit` when the history says so outright (a
 * trailer, an agent account, a note), `inferred` when it is read from how the commit looks.
 */
export type Evidence = 'explicit' | 'inferred';

/** One thing a strategy found. */
export interface Finding {
  /** How strongly this indicates machine generation, 0 to 1. */
  readonly score: number;
  /** A human-readable reason that names the measured value and the threshold. */
  readonly message: string;
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
}

/** A strategy may return findings alone, or findings with its own score and metrics. */
export interface StrategyOutcome {
  readonly findings: readonly Finding[];
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
   * Website strategies (API 1.2): a calibrated strategy's score is the page's probability; `covers`
   * names the strategies whose evidence that probability already includes (they only explain it).
   * Every other website strategy moves the page score in log-odds (docs/website-analysis.md).
   */
  readonly covers?: readonly string[];
  /** Website strategies: the page score is at least this (e.g. chat-assistant leftovers on the page). */
  readonly floor?: number;
}

export type StrategyReturn = readonly Finding[] | StrategyOutcome;

export interface RepositoryStrategy {
  readonly meta: StrategyMeta<'repository'>;
  analyze(context: RepositoryContext): StrategyReturn | Promise<StrategyReturn>;
}

export interface WebsiteStrategy {
  readonly meta: StrategyMeta<'website'>;
  analyze(context: WebsiteContext): StrategyReturn | Promise<StrategyReturn>;
}

export type Strategy = RepositoryStrategy | WebsiteStrategy;

/** The context a strategy of kind `K` is given. */
export type ContextOf<K extends SourceKind> = K extends 'repository' ? RepositoryContext : WebsiteContext;

/**
 * Declares a strategy. `K` is inferred from `meta.appliesTo` before the `analyze` function is
 * typed (context-sensitive functions are inferred last), so `analyze(context)` needs no annotation:
 * `context` is a RepositoryContext or a WebsiteContext accordingly.
 */
export function defineStrategy<K extends SourceKind>(strategy: {
  readonly meta: StrategyMeta<K>;
  analyze(context: ContextOf<K>): StrategyReturn | Promise<StrategyReturn>;
}): K extends 'repository' ? RepositoryStrategy : WebsiteStrategy {
  return strategy as unknown as K extends 'repository' ? RepositoryStrategy : WebsiteStrategy;
}

/** Normalizes what a strategy returned. */
export function toOutcome(value: StrategyReturn): StrategyOutcome {
  return Array.isArray(value) ? { findings: value as readonly Finding[] } : (value as StrategyOutcome);
}
