import { existsSync, readFileSync } from 'node:fs';
import {
  defineStrategy,
  logisticScore,
  type Finding,
  type LogisticModel,
  type WebsiteContext,
} from '@cadence-detect/plugin-sdk';
import { MIN_PROSE_WORDS, PAGE_FEATURE_NAMES, pageFeatures, proseWords } from './page-features.js';
import { MIN_WORDS, round } from './text-tools.js';

/** The shipped page model: a logistic regression over standardized page features, then a calibration. */
export interface PageModel extends LogisticModel {
  readonly version: number;
  readonly features: readonly string[];
  /** p = sigmoid(slope × (w·z + bias) + intercept), fitted on leave-one-topic-out scores of a balanced corpus. */
  readonly calibration: { readonly slope: number; readonly intercept: number };
  /** What human pages of the development corpus show, per feature: for the reasons a result gives. */
  readonly human: {
    readonly median: readonly number[];
    readonly p10: readonly number[];
    readonly p90: readonly number[];
  };
  readonly validation?: PageModelValidation;
  /** How far a page's measurements are read as measured, by its length (absent: all of them, always). */
  readonly shrink?: PageShrink;
}

/**
 * A short page's rates say less than a long page's: a 200-word page without "will" or "you" is
 * weak evidence that its writer never uses them. Before standardizing, each listed feature is drawn
 * toward the development pages' mean by the page's length:
 * x' = center + (x − center) × words / (words + prior_words). The model is fitted on values drawn
 * the same way (bench/pages.mjs).
 */
export interface PageShrink {
  readonly prior_words: number;
  /** The development pages' mean of every feature (PAGE_FEATURE_NAMES order). */
  readonly center: readonly number[];
  /** The features drawn toward the center: the rates; spreads, lengths, diversity and compression are read as measured. */
  readonly features: readonly string[];
}

/** How the shipped model was validated (bench/pages.mjs --write): what reports quote. */
export interface PageModelValidation {
  readonly method: string;
  readonly pages: number;
  readonly human: number;
  readonly machine: number;
  readonly auc: number;
  readonly human_at_or_above_0_4: number;
  readonly human_at_or_above_0_7: number;
}

/** The validation figures as result metrics (numbers only), so every report can say how far to trust the score. */
function validationMetrics(model: PageModel): Record<string, number> {
  const v = model.validation;
  if (!v || !(v.pages > 0) || !(v.human > 0)) return {};
  return {
    validation_auc: v.auc,
    validation_pages: v.pages,
    validation_human_at_0_4: round(v.human_at_or_above_0_4 / v.human),
  };
}

export const PAGE_MODEL_FILE = new URL('../model/page-model.json', import.meta.url);
/** A page shorter than this says too little: the model gives it this probability and says why. */
const TOO_SHORT_PROBABILITY = 0.05;

let shipped: PageModel | null | undefined;

/** The shipped model, or null when the plugin ships none (the engine then averages the signals). */
export function shippedPageModel(): PageModel | null {
  if (shipped !== undefined) return shipped;
  shipped = existsSync(PAGE_MODEL_FILE)
    ? checkPageModel(JSON.parse(readFileSync(PAGE_MODEL_FILE, 'utf8')) as PageModel)
    : null;
  return shipped;
}

export function checkPageModel(model: PageModel): PageModel {
  const n = PAGE_FEATURE_NAMES.length;
  if (
    model.features.length !== n ||
    model.features.some((f, i) => f !== PAGE_FEATURE_NAMES[i]) ||
    model.weights.length !== n
  ) {
    throw new Error(`page model: its features do not match this plugin's (${model.features.length} vs ${n})`);
  }
  const shrink = model.shrink;
  if (
    shrink &&
    (!(shrink.prior_words > 0) ||
      shrink.center.length !== n ||
      shrink.features.some((f) => !(PAGE_FEATURE_NAMES as readonly string[]).includes(f)))
  ) {
    throw new Error('page model: its shrink section does not fit this plugin\u2019s features');
  }
  return model;
}

/** The features as the model reads them for a page of `words` words (PageShrink); the vector itself when the model draws none. */
export function shrunkFeatures(model: PageModel, x: Float64Array, words: number): Float64Array {
  const shrink = model.shrink;
  if (!shrink || !Number.isFinite(words)) return x;
  const kept = Math.max(words, 0) / (Math.max(words, 0) + shrink.prior_words);
  const drawn = Float64Array.from(x);
  for (const name of shrink.features) {
    const i = PAGE_FEATURE_NAMES.indexOf(name as (typeof PAGE_FEATURE_NAMES)[number]);
    drawn[i] = shrink.center[i]! + (x[i]! - shrink.center[i]!) * kept;
  }
  return drawn;
}

/**
 * A standardized feature counts at most this many deviations from the development corpus's mean:
 * a page far outside what the model saw (a 5 MB page of one repeated section, a list of 400 stock
 * phrases) must not let one feature's straight line decide it. The bench fits with the same limit.
 */
export const FEATURE_Z_LIMIT = 4;

/**
 * The calibrated probability of a page's feature vector, and each feature's part of the score. `words`
 * is the page's length (`document.words`), which the model's shrink section reads; without it the
 * vector is read as measured (a page of unbounded length).
 */
export function pageProbability(
  model: PageModel,
  x: Float64Array,
  words = Number.POSITIVE_INFINITY,
): { probability: number; contributions: number[] } {
  const { probability, contributions } = logisticScore(model, shrunkFeatures(model, x, words), {
    zLimit: FEATURE_Z_LIMIT,
  });
  return { probability, contributions: Array.from(contributions) };
}

/**
 * The page model as a strategy: its score is the page's calibrated probability, which the engine
 * takes as the page score; the other website-signature strategies it `covers` explain it.
 */
export function pageModelStrategy(model: PageModel, covers: readonly string[]) {
  const validation = validationMetrics(model);
  return defineStrategy({
    meta: {
      name: 'page-model',
      category: 'website-signature',
      description:
        'A learned model over the page\u2019s prose measurements; its calibrated probability is the page score.',
      appliesTo: 'website',
      weight: 1,
      calibrated: true,
      messages: {
        probability: 'page model probability {{probability}}',
        probabilityWithSignals: 'page model probability {{probability}}; strongest signals: {{signals}}',
      },
    },
    analyze(context: WebsiteContext) {
      if (context.document.words < MIN_WORDS) {
        return {
          findings: [],
          score: TOO_SHORT_PROBABILITY,
          covers,
          metrics: { probability: TOO_SHORT_PROBABILITY, too_short: 1, ...validation },
        };
      }
      const prose = proseWords(context.document);
      if (prose < MIN_PROSE_WORDS) {
        return {
          findings: [],
          score: TOO_SHORT_PROBABILITY,
          covers,
          metrics: { probability: TOO_SHORT_PROBABILITY, too_little_prose: 1, prose_words: prose, ...validation },
        };
      }
      const x = pageFeatures(context.document);
      const { probability, contributions } = pageProbability(model, x, context.document.words);
      const p = round(probability);
      const strongest = strongestSignals(model, x, contributions);
      const findings: Finding<'probability' | 'probabilityWithSignals'>[] =
        p >= 0.4
          ? [
              {
                score: p,
                element: 'page',
                ...(strongest.length > 0
                  ? {
                      messageId: 'probabilityWithSignals' as const,
                      data: { probability: p.toFixed(2), signals: strongest.join('; ') },
                    }
                  : { messageId: 'probability' as const, data: { probability: p.toFixed(2) } }),
              },
            ]
          : [];
      return { findings, score: p, covers, metrics: { probability: p, ...validation } };
    },
  });
}

/** The (at most four) measurements that moved the page most toward the model's side, against the human pages' median. */
function strongestSignals(model: PageModel, x: ArrayLike<number>, contributions: readonly number[]): string[] {
  return contributions
    .map((c, i) => ({ c, i }))
    .filter((e) => e.c > 0.2)
    .sort((a, b) => b.c - a.c)
    .slice(0, 4)
    .map(
      ({ i }) =>
        `${PAGE_FEATURE_NAMES[i]!.replaceAll('_', ' ')} ${round(x[i]!)} (human pages: median ${round(model.human.median[i]!)})`,
    );
}

/** The new signals, each a strategy of its own that explains the page model with its measurements. */
export const SIGNAL_GROUPS: Readonly<Record<string, readonly (typeof PAGE_FEATURE_NAMES)[number][]>> = Object.freeze({
  'punctuation-profile': [
    'em_dashes_per_sentence',
    'colons_per_sentence',
    'semicolons_per_sentence',
    'parentheses_per_sentence',
  ],
  'term-lists': ['term_explanation_items'],
  'reader-address': ['second_person_rate', 'reader_openers'],
  'contrast-templates': ['contrast_templates'],
  triads: ['triads_per_sentence'],
  burstiness: ['sentence_length_cv', 'paragraph_length_cv'],
  'lexical-diversity': ['lexical_diversity_mtld', 'function_word_rate'],
  'heading-style': ['title_case_headings', 'colon_titles'],
  specificity: ['numbers_per_k', 'proper_nouns_per_k', 'code_per_k'],
  'compression-similarity': ['compression_gain'],
});

/**
 * A signal's strategy: each of its measurements is compared with human pages of the development
 * corpus, on the side the model's weight says points at machine text (above the human 90th
 * percentile for a positive weight, below the 10th for a negative one). The score is the share of
 * its measurements past that line; the message names each value against the human median.
 */
export function signalStrategy(
  model: PageModel,
  name: string,
  features: readonly (typeof PAGE_FEATURE_NAMES)[number][],
) {
  return defineStrategy({
    meta: {
      name,
      category: 'website-signature',
      description: `Page model signal: ${features.map((f) => f.replaceAll('_', ' ')).join(', ')}, against human pages.`,
      appliesTo: 'website',
      weight: 0.5,
      messages: { pastHumanRange: '{{measurements}}' },
    },
    analyze(context: WebsiteContext) {
      if (context.document.words < MIN_WORDS) return { findings: [], score: 0 };
      const x = pageFeatures(context.document);
      const past: string[] = [];
      for (const feature of features) {
        const i = PAGE_FEATURE_NAMES.indexOf(feature);
        const w = model.weights[i]!;
        const value = x[i]!;
        const beyond = w > 0 ? value > model.human.p90[i]! : w < 0 ? value < model.human.p10[i]! : false;
        if (beyond)
          past.push(
            `${feature.replaceAll('_', ' ')} ${round(value)} (human pages: median ${round(model.human.median[i]!)}, ${w > 0 ? '90th percentile' : '10th percentile'} ${round(w > 0 ? model.human.p90[i]! : model.human.p10[i]!)})`,
          );
      }
      const score = round(past.length / features.length);
      const findings: Finding<'pastHumanRange'>[] =
        past.length > 0
          ? [{ score, element: 'page', messageId: 'pastHumanRange', data: { measurements: past.join('; ') } }]
          : [];
      return { findings, score };
    },
  });
}
