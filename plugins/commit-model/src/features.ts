import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { shippedTokenScorer, type TokenScorer } from './message-tokens.js';
import { authoredBody } from './squash-list.js';

/**
 * The commit model's inputs: what a commit's size, pace, files and message look like, each against
 * the same author's other commits where a baseline makes sense. No date, repository or identity
 * feature: those would learn which projects and years the development corpus came from, not how
 * assistant-made commits look (docs/scoring.md, "Honest measurement").
 */
export const FEATURE_NAMES = [
  'log_additions',
  'log_deletions',
  'log_files',
  'addition_share',
  'size_vs_author',
  'log_interval',
  'first_of_author',
  'log_lines_per_minute',
  'pace_vs_author',
  'session_position',
  'log_dirs',
  'test_file_share',
  'doc_file_share',
  'code_with_tests',
  'code_with_docs',
  'subject_length',
  'subject_words',
  'body_length',
  'body_lines',
  'bullet_lines',
  'markdown_headings',
  'summary_section',
  'test_plan_section',
  'conventional_prefix',
  'subject_backticks',
  'body_backticks',
  'subject_capitalized',
  'subject_period',
  'pr_number',
  'forge_committed',
  'assistant_words',
  'long_body_lines',
  'bold_markers',
  'labelled_bullets',
  'checkbox_lines',
  'past_tense_subject',
  'self_reference',
  'emoji',
  'body_paragraphs',
  'author_bullet_rate',
  'author_body_rate',
  'author_conventional_rate',
  'plan_line',
  'suggestion_subject',
  'nearby_bullet_rate',
  'nearby_body_rate',
  'nearby_conventional_rate',
  'nearby_scope_rate',
  'nearby_long_body_rate',
  'nearby_labelled_rate',
  'nearby_backtick_rate',
  'nearby_paragraphs_rate',
  'nearby_code_with_tests_rate',
  'message_tokens',
  'code_tokens',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
export type FeatureVector = Float64Array;

const SESSION_GAP_SECONDS = 2 * 3600;
/** The author's commits on either side of a commit (in author-date order) that its `nearby_*` rates read. */
export const NEARBY_COMMITS = 20;
/** A body this long (characters) counts as long for `nearby_long_body_rate`. */
const LONG_BODY = 300;
const WEEK = 7 * 86400;
const MIN_INTERVAL_SECONDS = 30;

const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|spec|specs|testing|testdata|fixtures)\/|(?:^|[/_.-])(?:test|tests|spec)[_.-][^/]*$|[._-](?:test|spec)\.[a-z0-9]+$|_test\.go$|Tests?\.[a-z]+$/i;
const DOC_PATH = /\.(?:md|mdx|rst|txt|adoc)$|(?:^|\/)docs?\//i;
const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+\S/;
const HEADING = /^\s*#{1,4}\s+\S/;
const SUMMARY =
  /^\s*(?:#{1,4}\s*)?(?:\*\*)?(?:summary|overview|changes(?: made)?|what changed|key changes|motivation|description)(?:\*\*)?:?\s*$/im;
const TEST_PLAN = /^\s*(?:#{1,4}\s*)?(?:\*\*)?(?:test plan|testing|tests|how to test|verification)(?:\*\*)?:?\s*$/im;
const CONVENTIONAL = /^(?:feat|fix|chore|docs|refactor|test|tests|perf|ci|build|style|revert)(?:\([^)]{1,40}\))?!?:\s/i;
const PR_NUMBER = /\(#\d+\)\s*$/;
const FORGE_COMMITTER = /^noreply@github\.com$|^noreply@gitlab\.com$/i;
/** Words assistant-written messages lean on; counted, not trusted alone. */
const ASSISTANT_WORDS =
  /\b(?:comprehensive|enhance[sd]?|enhancements?|ensur(?:e|es|ing)|robust|streamlin(?:e|es|ed|ing)|leverag(?:e|es|ing)|seamless(?:ly)?|improved?|implement(?:s|ed|ation)?|additionally|utilit(?:y|ies)|functionality|properly|correctly|handling)\b/gi;

/** `- **Parser**: handles …` or `- Parser: handles …`: a bullet that opens with a label. */
const LABELLED_BULLET = /^\s*(?:[-*•]|\d+[.)])\s+(?:\*\*[^*]{1,60}\*\*|`[^`]{1,60}`|[A-Z][\w ./-]{1,40}):\s/;
/** A pull-request template's checklist. */
const CHECKBOX = /^\s*[-*]\s+\[[ xX]\]/;
const PAST_TENSE = /^(?:\w+(?:\([^)]*\))?!?:\s+)?[A-Za-z]+ed\b/;
const SELF_REFERENCE = /\bthis (?:commit|pr|pull request|change|patch|update|refactor)\b/i;
const EMOJI = /\p{Extended_Pictographic}/u;
/** A coding agent's first step, kept in the squashed message of its pull request (`* Initial plan`). */
const PLAN_LINE = /^\s*(?:[-*]\s+)?initial plan\s*$/im;
/** The forge's subject for an applied review suggestion (`Update src/x.ts`, `Apply suggestions from code review`). */
const SUGGESTION_SUBJECT = /^(?:update \S+\.[a-z0-9]+|apply suggestions? from (?:code )?review)$/i;
/** A conventional prefix with a scope (`fix(parser): …`). */
const SCOPED_PREFIX = /^[a-z]+\([^)]+\)!?:\s/;

interface AuthorBaseline {
  readonly medianLogLines: number;
  readonly medianLogPace: number;
  readonly bulletRate: number;
  readonly bodyRate: number;
  readonly conventionalRate: number;
}

export interface FeatureOptions {
  /**
   * What scores a message's tokens (`message_tokens`): the shipped token model by default. The
   * bench's refit passes its own, fitted without the repository it scores.
   */
  readonly messageTokens?: TokenScorer;
  /**
   * A commit's `code_tokens`: the code-token model's score of its added lines, read in the line
   * pass (`context.addedLineReadings`). Unknown (no reading: lines off, a range) is NaN, which the
   * model reads as the feature's mean (model.ts): it then decides nothing.
   */
  readonly codeTokens?: (commit: CommitRecord) => number | undefined;
}

/** The feature vector of every commit (in `commits` order); merges and boundary commits get one too. */
export function extractFeatures(given: readonly CommitRecord[], options: FeatureOptions = {}): FeatureVector[] {
  const vectors: FeatureVector[] = [];
  eachFeatureVector(given, (vector) => vectors.push(vector), options);
  return vectors;
}

/**
 * The same vectors, handed to `visit` one at a time in the commits' order and never held together:
 * a 50,000-commit history's vectors take 20 MiB outside V8's heap, at the point where the history
 * and the line ledger are largest.
 */
export function eachFeatureVector(
  given: readonly CommitRecord[],
  visit: (vector: FeatureVector, index: number) => void,
  options: FeatureOptions = {},
): void {
  const messageTokens = options.messageTokens ?? shippedTokenScorer();
  const codeTokens = options.codeTokens ?? (() => undefined);
  // Messages as their authors wrote them: a squash's list of commit messages without GitHub's markers.
  const commits = given.map((commit) => {
    const body = authoredBody(commit.subject, commit.body);
    return body === commit.body ? commit : { ...commit, body };
  });
  const baselines = authorBaselines(commits);
  const sessions = sessionPositions(commits);
  const nearby = nearbyRates(commits);
  commits.forEach((commit, index) =>
    visit(
      featuresOf(commit, baselines.get(authorKey(commit))!, sessions[index]!, nearby[index]!, {
        message: messageTokens(commit.subject, commit.body),
        code: codeTokens(given[index]!) ?? Number.NaN,
      }),
      index,
    ),
  );
}

// eslint-disable-next-line max-lines-per-function -- one line per feature in FEATURE_NAMES order, read against that list slot by slot
function featuresOf(
  commit: CommitRecord,
  author: AuthorBaseline,
  sessionPosition: number,
  nearby: Float64Array,
  tokens: { readonly message: number; readonly code: number },
): FeatureVector {
  const lines = commit.additions + commit.deletions;
  const interval = intervalOf(commit);
  const pace = paceOf(commit);
  const files = commit.files.filter((f) => !f.excluded);
  const tests = files.filter((f) => TEST_PATH.test(f.path)).length;
  const docs = files.filter((f) => DOC_PATH.test(f.path)).length;
  const code = files.length - tests - docs;
  const body = commit.body;
  const bodyLines = body.length === 0 ? [] : body.split('\n').filter((l) => l.trim().length > 0);
  const message = `${commit.subject}\n${body}`;
  // In FEATURE_NAMES order (a test checks the slots): one typed array, no per-commit object.
  return Float64Array.of(
    /* log_additions */ Math.log1p(commit.additions),
    /* log_deletions */ Math.log1p(commit.deletions),
    /* log_files */ Math.log1p(commit.filesChanged),
    /* addition_share */ commit.additions / (lines + 1),
    /* size_vs_author */ Math.log1p(lines) - author.medianLogLines,
    /* log_interval */ Math.log1p(interval ?? WEEK),
    /* first_of_author */ interval === null ? 1 : 0,
    /* log_lines_per_minute */ pace,
    /* pace_vs_author */ pace - author.medianLogPace,
    /* session_position */ Math.log1p(sessionPosition),
    /* log_dirs */ Math.log1p(new Set(files.map((f) => topFolder(f.path))).size),
    /* test_file_share */ files.length > 0 ? tests / files.length : 0,
    /* doc_file_share */ files.length > 0 ? docs / files.length : 0,
    /* code_with_tests */ code > 0 && tests > 0 ? 1 : 0,
    /* code_with_docs */ code > 0 && docs > 0 ? 1 : 0,
    /* subject_length */ Math.log1p(commit.subject.length),
    /* subject_words */ Math.log1p(commit.subject.split(/\s+/).filter(Boolean).length),
    /* body_length */ Math.log1p(body.length),
    /* body_lines */ Math.log1p(bodyLines.length),
    /* bullet_lines */ Math.log1p(bodyLines.filter((l) => BULLET.test(l)).length),
    /* markdown_headings */ Math.log1p(bodyLines.filter((l) => HEADING.test(l)).length),
    /* summary_section */ SUMMARY.test(body) ? 1 : 0,
    /* test_plan_section */ TEST_PLAN.test(body) ? 1 : 0,
    /* conventional_prefix */ CONVENTIONAL.test(commit.subject) ? 1 : 0,
    /* subject_backticks */ commit.subject.includes('`') ? 1 : 0,
    /* body_backticks */ Math.log1p(countOf(body, '`') / 2),
    /* subject_capitalized */ /^[A-Z]/.test(commit.subject) ? 1 : 0,
    /* subject_period */ /\.\s*$/.test(commit.subject) ? 1 : 0,
    /* pr_number */ PR_NUMBER.test(commit.subject) ? 1 : 0,
    /* forge_committed */ FORGE_COMMITTER.test(commit.committerEmail) && commit.committerEmail !== commit.authorEmail
      ? 1
      : 0,
    /* assistant_words */ Math.log1p((message.match(ASSISTANT_WORDS) ?? []).length),
    /* long_body_lines */ bodyLines.length > 0 ? bodyLines.filter((l) => l.length > 80).length / bodyLines.length : 0,
    /* bold_markers */ Math.log1p(countOf(body, '**') / 2),
    /* labelled_bullets */ Math.log1p(bodyLines.filter((l) => LABELLED_BULLET.test(l)).length),
    /* checkbox_lines */ Math.log1p(bodyLines.filter((l) => CHECKBOX.test(l)).length),
    /* past_tense_subject */ PAST_TENSE.test(commit.subject) ? 1 : 0,
    /* self_reference */ SELF_REFERENCE.test(body) ? 1 : 0,
    /* emoji */ EMOJI.test(message) ? 1 : 0,
    /* body_paragraphs */ Math.log1p(
      body.length === 0 ? 0 : body.split(/\n\s*\n/).filter((p) => p.trim().length > 0).length,
    ),
    /* author_bullet_rate */ author.bulletRate,
    /* author_body_rate */ author.bodyRate,
    /* author_conventional_rate */ author.conventionalRate,
    /* plan_line */ PLAN_LINE.test(body) ? 1 : 0,
    /* suggestion_subject */ SUGGESTION_SUBJECT.test(commit.subject) ? 1 : 0,
    // nearby_bullet_rate … nearby_code_with_tests_rate, in NEARBY_TRAITS order.
    ...nearby,
    /* message_tokens */ tokens.message,
    /* code_tokens */ tokens.code,
  );
}

function intervalOf(commit: CommitRecord): number | null {
  if (commit.previousAuthorTime === null) return null;
  return Math.min(Math.max(commit.authorTime - commit.previousAuthorTime, 0), WEEK);
}

/** log(1 + lines per minute) since the author's previous commit, the interval floored at 30 s; 0 for a first commit. */
function paceOf(commit: CommitRecord): number {
  const interval = intervalOf(commit);
  if (interval === null) return 0;
  return Math.log1p((commit.additions + commit.deletions) / (Math.max(interval, MIN_INTERVAL_SECONDS) / 60));
}

function authorKey(commit: CommitRecord): string {
  return commit.authorEmail.toLowerCase();
}

function authorBaselines(commits: readonly CommitRecord[]): Map<string, AuthorBaseline> {
  const groups = new Map<string, CommitRecord[]>();
  for (const commit of commits) {
    const key = authorKey(commit);
    const list = groups.get(key);
    if (list) list.push(commit);
    else groups.set(key, [commit]);
  }
  const baselines = new Map<string, AuthorBaseline>();
  for (const [key, list] of groups) {
    const n = list.length;
    baselines.set(key, {
      medianLogLines: median(list.map((c) => Math.log1p(c.additions + c.deletions))),
      medianLogPace: median(list.map(paceOf)),
      bulletRate: list.filter((c) => c.body.split('\n').some((l) => BULLET.test(l))).length / n,
      bodyRate: list.filter((c) => c.body.trim().length > 0).length / n,
      conventionalRate: list.filter((c) => CONVENTIONAL.test(c.subject)).length / n,
    });
  }
  return baselines;
}

/**
 * What the `nearby_*` features count: traits of a commit's message and files, each read on the same
 * author's commits around it. In FEATURE_NAMES order.
 */
const NEARBY_TRAITS: readonly ((commit: CommitRecord) => boolean)[] = [
  /* bullet */ (c) => c.body.split('\n').some((l) => BULLET.test(l)),
  /* body */ (c) => c.body.trim().length > 0,
  /* conventional */ (c) => CONVENTIONAL.test(c.subject),
  /* scope */ (c) => SCOPED_PREFIX.test(c.subject),
  /* long body */ (c) => c.body.length > LONG_BODY,
  /* labelled bullet */ (c) => c.body.split('\n').some((l) => LABELLED_BULLET.test(l)),
  /* backtick */ (c) => c.subject.includes('`') || c.body.includes('`'),
  /* paragraphs */ (c) => c.body.split(/\n\s*\n/).filter((p) => p.trim().length > 0).length >= 2,
  /* code with tests */ (c) => {
    const files = c.files.filter((f) => !f.excluded);
    const tests = files.filter((f) => TEST_PATH.test(f.path)).length;
    return tests > 0 && tests < files.length;
  },
];

/**
 * Per commit, the share of the same author's NEARBY_COMMITS commits before and after it (by author
 * date; the commit itself left out) that have each trait of NEARBY_TRAITS: how the author wrote at
 * that time, where the `author_*` rates read their whole history. 0 for an author's only commit.
 */
function nearbyRates(commits: readonly CommitRecord[]): Float64Array[] {
  const traits = NEARBY_TRAITS.length;
  const rates = commits.map(() => new Float64Array(traits));
  const byAuthor = new Map<string, number[]>();
  commits.forEach((commit, index) => {
    const key = authorKey(commit);
    const list = byAuthor.get(key);
    if (list) list.push(index);
    else byAuthor.set(key, [index]);
  });
  for (const indices of byAuthor.values()) {
    indices.sort((a, b) => commits[a]!.authorTime - commits[b]!.authorTime || a - b);
    const n = indices.length;
    // prefix[t * (n + 1) + i]: how many of the first i commits (in date order) have trait t.
    const prefix = new Float64Array(traits * (n + 1));
    indices.forEach((index, i) => {
      const commit = commits[index]!;
      for (let t = 0; t < traits; t++)
        prefix[t * (n + 1) + i + 1] = prefix[t * (n + 1) + i]! + (NEARBY_TRAITS[t]!(commit) ? 1 : 0);
    });
    indices.forEach((index, i) => {
      const lo = Math.max(0, i - NEARBY_COMMITS);
      const hi = Math.min(n, i + NEARBY_COMMITS + 1);
      const others = hi - lo - 1;
      if (others <= 0) return;
      const own = rates[index]!;
      for (let t = 0; t < traits; t++) {
        const row = t * (n + 1);
        const self = prefix[row + i + 1]! - prefix[row + i]!;
        own[t] = (prefix[row + hi]! - prefix[row + lo]! - self) / others;
      }
    });
  }
  return rates;
}

/** How many of the author's commits came before this one in the same working session (gaps under two hours). */
function sessionPositions(commits: readonly CommitRecord[]): number[] {
  const positions = new Array<number>(commits.length).fill(0);
  const last = new Map<string, { time: number; position: number }>();
  commits.forEach((commit, index) => {
    const key = authorKey(commit);
    const previous = last.get(key);
    const position = previous && commit.authorTime - previous.time <= SESSION_GAP_SECONDS ? previous.position + 1 : 0;
    positions[index] = position;
    last.set(key, { time: commit.authorTime, position });
  });
  return positions;
}

function topFolder(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

function countOf(text: string, char: string): number {
  let count = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) count++;
  return count;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
