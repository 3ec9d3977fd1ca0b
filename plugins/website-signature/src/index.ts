import { definePlugin } from '@cadence-detect/plugin-sdk';
import { humanVoice, textLength } from './human-voice.js';
import { aiVocabulary, placeholderText, stockPhrases, transitionDensity } from './lexical-signals.js';
import { websiteOverallScore } from './page-score.js';
import { PAGE_MODEL_FILE, pageModelStrategy, shippedPageModel, signalStrategy, SIGNAL_GROUPS } from './page-model.js';
import { SEED_FILE } from './compression.js';
import { LEXICON_FILES } from './lexicon.js';
import { repetitiveOpenings, sentenceUniformity, unhedgedClaims } from './rhythm-signals.js';
import { pageStructure, structureDensity } from './structure-signals.js';

export const STRATEGIES = [
  textLength,
  stockPhrases,
  aiVocabulary,
  transitionDensity,
  sentenceUniformity,
  repetitiveOpenings,
  unhedgedClaims,
  structureDensity,
  placeholderText,
  pageStructure,
  humanVoice,
] as const;

export { websiteOverallScore, SIGNAL_WEIGHTS } from './page-score.js';
export {
  pageModelStrategy,
  pageProbability,
  shrunkFeatures,
  FEATURE_Z_LIMIT,
  shippedPageModel,
  checkPageModel,
  PAGE_MODEL_FILE,
  type PageModel,
  type PageShrink,
} from './page-model.js';
export { pageFeatures, proseWords, PAGE_FEATURE_NAMES, MIN_PROSE_WORDS } from './page-features.js';
export {
  stockPhrases,
  aiVocabulary,
  transitionDensity,
  placeholderText,
  sentenceUniformity,
  repetitiveOpenings,
  unhedgedClaims,
  structureDensity,
  pageStructure,
  humanVoice,
  textLength,
};

export default definePlugin({
  name: 'website-signature',
  // The model, the compression seed and the word lists: new data changes verdicts (the result cache keys on them).
  dataFiles: [PAGE_MODEL_FILE, SEED_FILE, ...LEXICON_FILES],
  apply(hooks) {
    const model = shippedPageModel();
    hooks.registerStrategies.tap('website-signature', (registrar) => {
      for (const strategy of STRATEGIES) registrar.add(strategy);
      // The engine takes the model's probability as the page score; these signals explain it.
      if (model) {
        const signals = Object.entries(SIGNAL_GROUPS).map(([name, features]) => signalStrategy(model, name, features));
        for (const signal of signals) registrar.add(signal);
        registrar.add(
          pageModelStrategy(
            model,
            [...STRATEGIES, ...signals].map((s) => s.meta.name),
          ),
        );
      }
    });
    if (!model) {
      // Without a shipped model: the hand-set combination of these signals (the engine's default is a plain mean).
      hooks.refineResult.tap('website-signature', (result) => {
        if (result.source_type !== 'web') return result;
        const score = websiteOverallScore(result.strategy_results);
        return score === null ? result : { ...result, overall_score: score, suspicion_score: score };
      });
    }
  },
});
