import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import type { CompiledRule, RuleSet } from './rules.js';
import { trailersOf } from './trailers.js';

/** What one rule found on one commit. */
export interface Attribution {
  readonly assistant: string;
  readonly rule: string;
  /** Where it was found, e.g. `trailer`, `author`, `committer`, `subject`, `note`, `branch`. */
  readonly where: string;
  /** What matched, as written (bounded). */
  readonly quote: string;
}

const MAX_QUOTE = 160;
const UNNAMED = 'unnamed assistant';
const AFFIRMATIVE = /^(?:yes|true|y|1)$/i;

/**
 * Every rule that fires on the commit, at most one attribution per rule. `identities` caches the
 * identity rules' answer per author and committer pair: a history has far fewer people than commits.
 */
export function attributeCommit(
  commit: CommitRecord,
  rules: RuleSet,
  identities: Map<string, Attribution[]> = new Map(),
): Attribution[] {
  const who = commit.writtenAs ?? commit;
  const key = `${who.authorName}\0${who.authorEmail}\0${who.committerName}\0${who.committerEmail}`;
  let byIdentity = identities.get(key);
  if (!byIdentity) {
    byIdentity = identityAttributions(commit, rules);
    identities.set(key, byIdentity);
  }
  const found: Attribution[] = [...byIdentity];
  if (commit.body.length === 0 && !rules.rules.some((r) => r.spec.kind === 'subject')) return found;
  const trailers = commit.body.length === 0 ? [] : trailersOf(commit.body);
  const lines =
    commit.body.length === 0
      ? []
      : commit.body
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.length > 0);
  for (const rule of rules.rules) {
    if (rule.spec.kind === 'identity') continue;
    const hit = matchRule(rules, rule, commit, trailers, lines, []);
    if (hit) found.push(hit);
  }
  return found;
}

/** Decided on the author and committer as the commit names them, before any `.mailmap` (which a change can commit). */
function identityAttributions(commit: CommitRecord, rules: RuleSet): Attribution[] {
  const who = commit.writtenAs ?? commit;
  const identities = [
    {
      where: 'author',
      values: [who.authorName, who.authorEmail],
      quote: `${who.authorName} <${who.authorEmail}>`,
    },
    {
      where: 'committer',
      values: [who.committerName, who.committerEmail],
      quote: `${who.committerName} <${who.committerEmail}>`,
    },
  ];
  const found: Attribution[] = [];
  for (const rule of rules.rules) {
    if (rule.spec.kind !== 'identity') continue;
    const hit = matchRule(rules, rule, commit, [], [], identities);
    if (hit) found.push(hit);
  }
  return found;
}

function matchRule(
  rules: RuleSet,
  rule: CompiledRule,
  commit: CommitRecord,
  trailers: ReturnType<typeof trailersOf>,
  lines: readonly string[],
  identities: readonly { where: string; values: readonly string[]; quote: string }[],
): Attribution | null {
  const { spec, pattern } = rule;
  switch (spec.kind) {
    case 'trailer':
      for (const trailer of trailers) {
        if (!rule.key?.test(trailer.key)) continue;
        const match = pattern.exec(trailer.value);
        if (match) return hit(spec.id, assistantName(spec.assistant, match, rules), 'trailer', trailer.line);
      }
      return null;
    case 'line':
      for (const line of lines) {
        const match = pattern.exec(line);
        if (match) return hit(spec.id, assistantName(spec.assistant, match, rules), 'message', line);
      }
      return null;
    case 'subject': {
      const match = pattern.exec(commit.subject);
      return match ? hit(spec.id, assistantName(spec.assistant, match, rules), 'subject', commit.subject) : null;
    }
    case 'identity':
      for (const identity of identities) {
        for (const value of identity.values) {
          const match = pattern.exec(value);
          if (match) return hit(spec.id, assistantName(spec.assistant, match, rules), identity.where, identity.quote);
        }
      }
      return null;
  }
}

function assistantName(template: string, match: RegExpExecArray, rules: RuleSet): string {
  if (template !== '$1') return template;
  const named = (match[1] ?? '').trim();
  if (named.length === 0 || AFFIRMATIVE.test(named)) return UNNAMED;
  return rules.displayNames[named.toLowerCase().replace(/\s+/g, ' ')] ?? named.slice(0, 60);
}

export function hit(rule: string, assistant: string, where: string, quote: string): Attribution {
  return { rule, assistant, where, quote: quote.length > MAX_QUOTE ? `${quote.slice(0, MAX_QUOTE - 1)}…` : quote };
}
