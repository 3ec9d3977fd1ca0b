import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { hit, type Attribution } from './match.js';
import { errorMessage } from '@cadence-detect/plugin-sdk';

/** One automation account rule: an id and a case-insensitive pattern over the author's name or e-mail. */
export interface AutomationRuleSpec {
  readonly id: string;
  readonly pattern: string;
}

export interface CompiledAutomationRule {
  readonly id: string;
  readonly pattern: RegExp;
}

export function compileAutomationRule(spec: AutomationRuleSpec): CompiledAutomationRule {
  try {
    return { id: spec.id, pattern: new RegExp(spec.pattern, 'iu') };
  } catch (error) {
    throw new Error(`automation rule "${spec.id}": ${errorMessage(error)}`);
  }
}

/**
 * The automation account that authored the commit, if one did. The author only: a person's
 * commit made in the forge's web editor or merged by a bot keeps its person as author. Cached per
 * author, as a history has far fewer authors than commits.
 */
export function automationOf(
  commit: CommitRecord,
  rules: readonly CompiledAutomationRule[],
  seen: Map<string, Attribution | null>,
): Attribution | null {
  // As the commit names its author: a `.mailmap` the change commits cannot rename a bot.
  const who = commit.writtenAs ?? commit;
  const key = `${who.authorName}\0${who.authorEmail}`;
  const known = seen.get(key);
  if (known !== undefined) return known;
  let found: Attribution | null = null;
  for (const rule of rules) {
    const value = [who.authorName, who.authorEmail].find((v) => rule.pattern.test(v));
    if (value !== undefined) {
      found = hit(rule.id, who.authorName, 'author', `${who.authorName} <${who.authorEmail}>`);
      break;
    }
  }
  seen.set(key, found);
  return found;
}
