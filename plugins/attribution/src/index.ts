import { Type } from '@cadence-detect/plugin-sdk/typebox';
import {
  assistantOfTool,
  defineStrategy,
  definePlugin,
  type CommitRecord,
  type Finding,
  type OptionsOf,
  type RepositoryContext,
  type RequestCommits,
} from '@cadence-detect/plugin-sdk';
import { noteAttributionOf, readAuthorshipLog, type NoteAttribution } from './git-ai-notes.js';
import { automationOf } from './automation.js';
import { attributeCommit, hit, type Attribution } from './match.js';
import { compileRules, type RuleSet } from './rules.js';

export { readAuthorshipLog, type NoteAttribution } from './git-ai-notes.js';
export { attributeCommit, type Attribution } from './match.js';
export {
  compileRules,
  builtInRuleIds,
  builtInAutomationIds,
  RULES_FILE,
  type AttributionRuleSpec,
  type BranchRuleSpec,
  type RuleSet,
} from './rules.js';
export { trailersOf, type Trailer } from './trailers.js';

const RULE = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 80 }),
    assistant: Type.String({ minLength: 1, maxLength: 60 }),
    kind: Type.Enum(['trailer', 'line', 'subject', 'identity']),
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    pattern: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
);

const BRANCH = Type.Object(
  { prefix: Type.String({ minLength: 1, maxLength: 100 }), assistant: Type.String({ minLength: 1, maxLength: 60 }) },
  { additionalProperties: false },
);

/** `plugin_options.attribution`: rules of the data file's shape, added after the built-in ones. */
export const ATTRIBUTION_OPTIONS = Type.Object(
  {
    rules: Type.Array(RULE, { default: [] }),
    branches: Type.Array(BRANCH, { default: [] }),
    /** Patterns (case-insensitive) over an author's name or e-mail: more automation accounts. */
    automation: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { default: [] }),
  },
  { additionalProperties: false },
);

type AttributionOptions = OptionsOf<typeof ATTRIBUTION_OPTIONS>;

/** Compiled once per distinct options object (the engine hands the same frozen options to every job). */
const compiled = new WeakMap<object, RuleSet>();

function rulesFor(options: AttributionOptions): RuleSet {
  let set = compiled.get(options);
  if (!set) {
    set = compileRules(options.rules, options.branches, options.automation);
    compiled.set(options, set);
  }
  return set;
}

const messages = {
  explicit: '{{assistant}}: {{where}} {{quote}} (rule {{rule}}){{also}}',
  viaRequest: '{{assistant}}: {{via}}: {{where}} {{quote}} (rule {{rule}})',
  automation: 'automation: {{quote}} (rule {{rule}})',
} as const;
type AttributionFinding = Finding<keyof typeof messages>;

export const attributionStrategy = defineStrategy(ATTRIBUTION_OPTIONS, {
  meta: {
    name: 'attribution',
    category: 'attribution',
    description:
      'What the history says outright: assistant trailers and footers, prompts, agent accounts, Git AI notes (refs/notes/ai), agent branches of a push; and which commits automation accounts made.',
    appliesTo: 'repository',
    weight: 1,
    messages,
  },
  analyze(context) {
    const rules = rulesFor(context.options);
    const branch = agentBranch(context, rules);
    const findings: AttributionFinding[] = [];
    const identities = new Map<string, Attribution[]>();
    const automationAccounts = new Map<string, Attribution | null>();
    let attributed = 0;
    let automation = 0;
    let viaRequests = 0;
    for (const commit of context.commits) {
      const found = attributeCommit(commit, rules, identities);
      const fromNote = noteAttribution(noteOf(context, commit.hash));
      if (fromNote) found.push(fromNote);
      if (branch) found.push(branch);
      const [first, ...others] = found;
      if (first) {
        findings.push(toFinding(commit, first, others));
        attributed++;
        continue;
      }
      const request = context.requestCommits?.get(commit.hash);
      const carried = request ? requestAttribution(request, rules, identities) : null;
      if (request && carried) {
        findings.push(carriedFinding(commit, request, carried));
        attributed++;
        viaRequests++;
        continue;
      }
      // Explicit attribution wins: only a commit nothing attributes can be automation's.
      const account = automationOf(commit, rules.automation, automationAccounts);
      if (account) {
        findings.push({
          commit: commit.hash,
          score: 0,
          evidence: 'automation',
          messageId: 'automation',
          data: { quote: account.quote, rule: account.rule },
        });
        automation++;
      }
    }
    return {
      findings,
      metrics: {
        attributed_commits: attributed,
        automation_commits: automation,
        ...(context.requestCommits ? { attributed_via_requests: viaRequests } : {}),
      },
    };
  },
});

function toFinding(commit: CommitRecord, first: Attribution, others: readonly Attribution[]): AttributionFinding {
  const also =
    others.length > 0 ? `; also ${others.map((a) => `${a.where} ${JSON.stringify(a.quote)}`).join('; ')}` : '';
  return {
    commit: commit.hash,
    score: 1,
    evidence: 'explicit',
    assistant: first.assistant,
    messageId: 'explicit',
    data: {
      assistant: first.assistant,
      where: first.where,
      quote: JSON.stringify(first.quote),
      rule: first.rule,
      also,
    },
  };
}

function agentBranch(context: RepositoryContext, rules: RuleSet): Attribution | null {
  const { branch, range } = context.source;
  // Only a push names the branch its commits were made on; a whole history's branch says nothing of each commit.
  if (range === null || branch === null) return null;
  const rule = rules.branches.find((b) => branch.startsWith(b.prefix));
  return rule ? hit(`branch:${rule.prefix}`, rule.assistant, 'branch', branch) : null;
}

/** The whole log the host parsed; a host before plugin API 1.16 gives only the note's text. */
function noteOf(context: RepositoryContext, hash: string): NoteAttribution | null {
  const log = context.authorshipLogs?.get(hash);
  if (log) return noteAttributionOf(log);
  const text = context.authorshipLogs ? undefined : context.aiNotes.get(hash);
  return text === undefined ? null : readAuthorshipLog(text);
}

/** What a squashed request's own commits say: the first attribution among them, and how many have one. */
export interface RequestAttribution {
  readonly first: Attribution;
  readonly attributed: number;
}

/**
 * A squashed request's own commits (read from the request's head ref) judged by the same rules as
 * the history's, notes included: null when none of them names an assistant.
 */
export function requestAttribution(
  request: RequestCommits,
  rules: RuleSet,
  identities: Map<string, Attribution[]> = new Map(),
): RequestAttribution | null {
  let first: Attribution | null = null;
  let attributed = 0;
  for (const commit of request.commits) {
    const found = attributeCommit(commit, rules, identities);
    const log = request.authorshipLogs.get(commit.hash);
    const fromNote = log ? noteAttribution(noteAttributionOf(log)) : null;
    if (fromNote) found.push(fromNote);
    const [earliest] = found;
    if (earliest === undefined) continue;
    attributed++;
    first ??= earliest;
  }
  return first ? { first, attributed } : null;
}

/** The explicit finding on a squash commit nothing of its own attributes, carried by its request. */
function carriedFinding(
  squash: CommitRecord,
  request: RequestCommits,
  carried: RequestAttribution,
): AttributionFinding {
  const { first, attributed } = carried;
  const commits = request.commits.length;
  const via = `via pull request #${request.number} (${attributed} of its ${commits} commit${commits === 1 ? '' : 's'} in ${request.ref})`;
  return {
    commit: squash.hash,
    score: 1,
    evidence: 'explicit',
    assistant: first.assistant,
    viaRequest: request.number,
    messageId: 'viaRequest',
    data: { assistant: first.assistant, via, where: first.where, quote: JSON.stringify(first.quote), rule: first.rule },
  };
}

function noteAttribution(log: NoteAttribution | null): Attribution | null {
  if (!log) return null;
  const tool = log.tools[0];
  const assistant = tool === undefined ? 'unnamed assistant' : assistantOfTool(tool);
  const model = log.models.length > 0 ? ` (${log.models.join(', ')})` : '';
  return hit(
    'git-ai-note',
    assistant,
    'note',
    `refs/notes/ai: ${log.aiLines} lines in ${log.files} file${log.files === 1 ? '' : 's'} by ${log.tools.join(', ') || 'an AI session'}${model}`,
  );
}

export default definePlugin({
  name: 'attribution',
  meta: {
    description: 'Explicit attribution: what commits, accounts, notes and branches say about assistants.',
    options: ATTRIBUTION_OPTIONS,
  },
  apply(hooks) {
    hooks.registerStrategies.tap('attribution', (registrar) => registrar.add(attributionStrategy));
  },
});
