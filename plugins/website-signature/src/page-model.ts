import { existsSync, readFileSync } from 'node:fs';
import { defineStrategy, type Finding, type WebsiteContext } from '@cadence/plugin-sdk';
import { PAGE_FEATURE_NAMES, pageFeatures } from './page-features.js';
import { MIN_WORDS, round } from './text-tools.js';

/** The shipped page model: a logistic regression over standardized page features, then a calibration. */
export interface PageModel {
  readonly version: number;
  readonly features: readonly string[];
  readonly mean: readonly number[];
  readonly scale: readonly number[];
  readonly weights: readonly number[];
  readonly bias: number;
  /** p = sigmoid(slope × (w·z + bias) + intercept), fitted on leave-one-topic-out scores of a balanced corpus. */
  readonly calibration: { readonly slope: number; readonly intercept: number };
  /** What human pages of the development corpus show, per feature: for the reasons a result gives. */
  readonly human: { readonly median: readonly number[] };
  readonly validation?: unknown;
}

export const PAGE_MODEL_FILE = new URL('../model/page-model.json', import.meta.url);
/** A page shorter than this says too little: the model gives it this probability and says why. */
const TOO_SHORT_PROBABILITY = 0.05;

let shipped: PageModel | null | undefined;

/** The shipped model, or null when the plugin ships none (the engine then averages the signals). */
export function shippedPageModel(): PageModel | null {
  if (shipped !== undefined) return shipped;
  shipped = existsSync(PAGE_MODEL_FILE) ? checkPageModel(JSON.parse(readFileSync(PAGE_MODEL_FILE, 'utf8')) as PageModel) : null;
  return shipped;
}

export function checkPageModel(model: PageModel): PageModel {
  const n = PAGE_FEATURE_NAMES.length;
  if (model.features.length !== n || model.features.some((f, i) => f !== PAGE_FEATURE_NAMES[i]) || model.weights.length !== n) {
    throw new Error(`page model: its features do not match this plugin's (${model.features.length} vs ${n})`);
  }
  return model;
}

export function pageProbability(model: PageModel, x: Float64Array): { probability: number; contributions: number[] } {
  const contributions = model.weights.map((w, i) => w * ((x[i]! - model.mean[i]!) / model.scale[i]!));
  const z = model.bias + contributions.reduce((a, b) => a + b, 0);
  return { probability: 1 / (1 + Math.exp(-(model.calibration.slope * z + model.calibration.intercept))), contributions };
}

/**
 * The page model as a strategy: its score is the page's calibrated probability, which the engine
 * takes as the page score; the other website-signature strategies it `covers` explain it.
 */
export function pageModelStrategy(model: PageModel, covers: readonly string[]) {
  return defineStrategy({
    meta: {
      name: 'page-model',
      category: 'website-signature',
      description: 'A learned model over the page\u2019s prose measurements; its calibrated probability is the page score.',
      appliesTo: 'website',
      weight: 1,
      calibrated: true,
    },
    analyze(context: WebsiteContext) {
      if (context.document.words < MIN_WORDS) {
        return { findings: [], score: TOO_SHORT_PROBABILITY, covers, metrics: { probability: TOO_SHORT_PROBABILITY } };
      }
      const x = pageFeatures(context.document);
      const { probability, contributions } = pageProbability(model, x);
      const p = round(probability);
      const strongest = contributions
        .map((c, i) => ({ c, i }))
        .filter((e) => e.c > 0.2)
        .sort((a, b) => b.c - a.c)
        .slice(0, 4)
        .map(({ i }) => `${PAGE_FEATURE_NAMES[i]!.replaceAll('_', ' ')} ${round(x[i]!)} (human pages: median ${round(model.human.median[i]!)})`);
      const findings: Finding[] = p >= 0.4 ? [{ score: p, element: 'page', message: `page model probability ${p.toFixed(2)}${strongest.length ? `; strongest signals: ${strongest.join('; ')}` : ''}` }] : [];
      return { findings, score: p, covers, metrics: { probability: p } };
    },
  });
}
