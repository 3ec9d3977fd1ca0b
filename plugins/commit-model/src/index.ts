import {
  defineStrategy,
  definePlugin,
  isMeasurableCommit,
  type CommitRecord,
  type Finding,
  type RepositoryContext,
} from '@cadence-detect/plugin-sdk';
import { eachFeatureVector, FEATURE_NAMES } from './features.js';
import { isImportedTree } from './imported-tree.js';
import { TOKEN_MODEL_FILE } from './message-tokens.js';
import { CODE_TOKEN_MODEL_FILE, shippedCodeTokenReader } from './code-tokens.js';
import { MODEL_FILE, probabilityOf, score, shippedModel, type CommitModel } from './model.js';

export {
  extractFeatures,
  FEATURE_NAMES,
  NEARBY_COMMITS,
  type FeatureName,
  type FeatureOptions,
  type FeatureVector,
} from './features.js';
export { decodeTokenModel, encodeTokenModel, TOKEN_BITS, type TokenModel, type TokenVector } from './hashed-tokens.js';
export {
  commitMessageTokens,
  messageTokenVector,
  shippedTokenScorer,
  tokenScorer,
  TOKEN_MODEL_FILE,
  type TokenScorer,
} from './message-tokens.js';
export {
  codeTokenKey,
  codeTokenReader,
  codeTokenVector,
  CODE_TOKEN_MODEL_FILE,
  CODE_TOKENIZER_VERSION,
  shippedCodeTokenReader,
} from './code-tokens.js';
export { isImportedTree } from './imported-tree.js';
export { checkModel, probabilityOf, score, shippedModel, MODEL_FILE, type CommitModel } from './model.js';
/** The logistic function of the SDK's scoring helpers, still exported here for the plugin's earlier users. */
export { sigmoid } from '@cadence-detect/plugin-sdk';

/** How a feature reads in a reason; the names of the rest are shown as they are. */
const READABLE: Record<(typeof FEATURE_NAMES)[number], string> = {
  log_additions: 'many lines added',
  log_deletions: 'many lines deleted',
  log_files: 'many files changed',
  addition_share: 'mostly additions',
  log_interval: 'the time since the author\u2019s previous commit',
  first_of_author: 'the author\u2019s first commit',
  log_dirs: 'many top-level folders touched',
  test_file_share: 'a large share of test files',
  doc_file_share: 'a large share of documentation files',
  subject_length: 'a long subject line',
  subject_words: 'many words in the subject',
  body_lines: 'many lines in the message body',
  subject_backticks: 'code quoted in the subject',
  body_backticks: 'code quoted in the message body',
  subject_capitalized: 'a capitalised subject',
  subject_period: 'a subject ending in a full stop',
  pr_number: 'a squash-merge subject ending in (#123)',
  forge_committed: 'committed by the forge',
  long_body_lines: 'long lines in the message body',
  bold_markers: 'bold text in the message',
  labelled_bullets: 'bullets that open with a label',
  checkbox_lines: 'a checklist in the message',
  past_tense_subject: 'a subject in the past tense',
  self_reference: '\u201cthis commit\u201d or \u201cthis PR\u201d in the message',
  emoji: 'emoji in the message',
  body_paragraphs: 'several paragraphs in the message',
  author_body_rate: 'the author\u2019s messages uniformly have bodies',
  author_conventional_rate: 'the author\u2019s messages are uniformly conventional',
  plan_line: 'a coding agent\u2019s plan step in the message',
  suggestion_subject: 'the subject of an applied review suggestion',
  bullet_lines: 'bulleted message body',
  markdown_headings: 'Markdown headings in the message',
  summary_section: 'a summary section in the message',
  test_plan_section: 'a test-plan section in the message',
  body_length: 'a long message body',
  conventional_prefix: 'a conventional-commit prefix',
  assistant_words: 'words assistant-written messages lean on',
  code_with_tests: 'code and tests added together',
  code_with_docs: 'code and documentation changed together',
  size_vs_author: 'larger than the author\u2019s usual commit',
  pace_vs_author: 'faster than the author\u2019s usual pace',
  log_lines_per_minute: 'lines per minute since the author\u2019s previous commit',
  session_position: 'deep into a working session',
  author_bullet_rate: 'the author\u2019s messages are uniformly bulleted',
  nearby_bullet_rate: 'the author\u2019s commits around it are bulleted',
  nearby_body_rate: 'the author\u2019s commits around it have bodies',
  nearby_conventional_rate: 'the author\u2019s commits around it are conventional',
  nearby_scope_rate: 'the author\u2019s commits around it have scoped prefixes',
  nearby_long_body_rate: 'the author\u2019s commits around it have long bodies',
  nearby_labelled_rate: 'the author\u2019s commits around it have labelled bullets',
  nearby_backtick_rate: 'the author\u2019s commits around it quote code in backticks',
  nearby_paragraphs_rate: 'the author\u2019s commits around it have several paragraphs',
  nearby_code_with_tests_rate: 'the author\u2019s commits around it add code with tests',
  message_tokens: 'the words of the message',
  code_tokens: 'the words of the added code',
};

const messages = {
  flagged: 'model probability {{probability}} (flagged from {{flagAt}}): {{signals}}',
  flaggedWithoutSignals: 'model probability {{probability}} (flagged from {{flagAt}})',
} as const;
type CommitModelFinding = Finding<keyof typeof messages>;

export const commitModelStrategy = defineStrategy({
  meta: {
    name: 'commit-model',
    category: 'model',
    description:
      'A learned model of assistant-made commits (size and pace against the author\u2019s baseline, session, files, message shape); its calibrated probability decides each commit\u2019s confidence.',
    appliesTo: 'repository',
    weight: 1,
    calibrated: true,
    messages,
  },
  // The added code's tokens are scored in the line pass (no read of their own). The getter reads the
  // weights file when the strategy is registered (its key is the file's digest); they are parsed on
  // the first commit read.
  get addedLines() {
    return shippedCodeTokenReader();
  },
  analyze(context: RepositoryContext) {
    const model = shippedModel();
    const readings = context.addedLineReadings;
    // No reading (lines off, a range): the feature's mean, so it moves nothing and no vector is copied.
    const unread = model.mean[FEATURE_NAMES.indexOf('code_tokens')] ?? 0;
    const codeTokens = (commit: CommitRecord): number => readings?.get(commit.hash) ?? unread;
    const probabilities = new Map<string, number>();
    const findings: CommitModelFinding[] = [];
    let imported = 0;
    eachFeatureVector(
      context.commits,
      (vector, index) => {
        const commit = context.commits[index];
        if (!commit || !isMeasurableCommit(commit) || commit.additions + commit.deletions === 0) return;
        if (isImportedTree(commit)) {
          // A vendored or copied library says nothing about how its author writes: it gets nothing.
          probabilities.set(commit.hash, 0);
          imported++;
          return;
        }
        const p = Math.round(probabilityOf(model, vector) * 1000) / 1000;
        probabilities.set(commit.hash, p);
        if (p >= model.flagAt)
          findings.push({
            commit: commit.hash,
            score: p,
            ...reason(model, p, score(model, vector).contributions),
            evidence: 'inferred',
          });
      },
      { codeTokens },
    );
    return {
      findings,
      probabilities,
      flagAt: model.flagAt,
      prior: model.calibration.prior,
      covers: COVERED,
      metrics: { scored: probabilities.size, imported_trees: imported, code_tokens_read: readings ? 1 : 0 },
    };
  },
});

/**
 * The built-in strategies whose evidence the model's features already hold (size, pace, interval):
 * they explain its probability rather than move it. Any other strategy's finding moves it.
 */
const COVERED: readonly string[] = Object.freeze(['velocity', 'timing', 'size']);

/** The finding's message: the probability, the threshold and the three features that raised it most. */
function reason(
  model: CommitModel,
  p: number,
  contributions: Float64Array,
): Pick<CommitModelFinding, 'messageId' | 'data'> {
  const top = [...contributions.entries()]
    .filter(([, c]) => c > 0.15)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .flatMap(([i]) => {
      const name = FEATURE_NAMES[i];
      return name === undefined ? [] : [READABLE[name]];
    });
  const data = { probability: Math.min(p, 0.99).toFixed(2), flagAt: model.flagAt.toFixed(2) };
  return top.length > 0
    ? { messageId: 'flagged', data: { ...data, signals: top.join(', ') } }
    : { messageId: 'flaggedWithoutSignals', data };
}

export default definePlugin({
  name: 'commit-model',
  meta: { description: 'The learned commit model (docs/scoring.md): calibrated per-commit probabilities.' },
  dataFiles: [MODEL_FILE, TOKEN_MODEL_FILE, CODE_TOKEN_MODEL_FILE],
  apply(hooks) {
    hooks.registerStrategies.tap('commit-model', (registrar) => registrar.add(commitModelStrategy));
  },
});
