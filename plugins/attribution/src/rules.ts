import { readFileSync } from 'node:fs';
import { compileAutomationRule, type AutomationRuleSpec, type CompiledAutomationRule } from './automation.js';
import { errorMessage } from '@cadence-detect/plugin-sdk';

/** Where a rule looks. */
export type RuleKind = 'trailer' | 'line' | 'subject' | 'identity';

/** One rule as written in the data file or in `plugin_options.attribution.rules`. */
export interface AttributionRuleSpec {
  readonly id: string;
  /** The assistant's display name, or `$1` to take it from the pattern's first group. */
  readonly assistant: string;
  readonly kind: RuleKind;
  /** For `trailer` rules: the trailer key, itself a pattern (`co-authored-by`, `ai-(?:assisted|generated)`). */
  readonly key?: string;
  /** Case-insensitive; matched against the trailer value, a body line, the subject or an identity. */
  readonly pattern: string;
}

export interface BranchRuleSpec {
  readonly prefix: string;
  readonly assistant: string;
}

export interface RuleSet {
  readonly rules: readonly CompiledRule[];
  readonly branches: readonly BranchRuleSpec[];
  /** An assistant a `$1` rule read, in lower case, to the name reports show (`codex` is OpenAI Codex). */
  readonly displayNames: Readonly<Record<string, string>>;
  /** Automation accounts: the built-in ones, then the user's (`plugin_options.attribution.automation`). */
  readonly automation: readonly CompiledAutomationRule[];
}

export interface CompiledRule {
  readonly spec: AttributionRuleSpec;
  readonly key: RegExp | null;
  readonly pattern: RegExp;
}

interface RulesFile {
  readonly rules: readonly AttributionRuleSpec[];
  readonly branches: readonly BranchRuleSpec[];
  readonly displayNames?: Readonly<Record<string, string>>;
  readonly automation?: readonly AutomationRuleSpec[];
}

/** The file the plugin ships: data, not code, so that rules change without a release of the logic. */
export const RULES_FILE = new URL('../rules/attribution-rules.json', import.meta.url);

let builtIn: RulesFile | null = null;

function builtInRules(): RulesFile {
  builtIn ??= JSON.parse(readFileSync(RULES_FILE, 'utf8')) as RulesFile;
  return builtIn;
}

/** The built-in rules followed by the user's own (each user rule is checked, its regex compiled once). */
export function compileRules(
  extra: readonly AttributionRuleSpec[] = [],
  extraBranches: readonly BranchRuleSpec[] = [],
  extraAutomation: readonly string[] = [],
): RuleSet {
  const file = builtInRules();
  const userAutomation = extraAutomation.map((pattern, index) => ({ id: `automation[${index}]`, pattern }));
  return {
    automation: [...(file.automation ?? []), ...userAutomation].map(compileAutomationRule),
    rules: [...file.rules, ...extra].map(compileRule),
    branches: [...file.branches, ...extraBranches],
    displayNames: file.displayNames ?? {},
  };
}

export function compileRule(spec: AttributionRuleSpec): CompiledRule {
  try {
    return {
      spec,
      key: spec.kind === 'trailer' ? new RegExp(`^(?:${spec.key ?? 'co-authored-by'})$`, 'i') : null,
      pattern: new RegExp(spec.pattern, 'iu'),
    };
  } catch (error) {
    throw new Error(`attribution rule "${spec.id}": ${errorMessage(error)}`);
  }
}

/** The automation rule ids of the built-in set, for documentation and tests. */
export function builtInAutomationIds(): string[] {
  return (builtInRules().automation ?? []).map((r) => r.id);
}

/** The rule ids of the built-in set, for documentation and tests. */
export function builtInRuleIds(): string[] {
  return builtInRules().rules.map((r) => r.id);
}
