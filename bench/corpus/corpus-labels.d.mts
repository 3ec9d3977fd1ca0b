// Types of corpus-labels.mjs, for the test that checks it (tests/corpus/labels.test.ts).
import type { CommitRecord } from '@cadence-detect/plugin-sdk';

export interface LabelRule {
  readonly id: string;
  readonly where: 'trailer' | 'line' | 'subject' | 'identity';
  readonly assistant: string | null;
  readonly stripOnly: boolean;
}
export type AssistantNames = readonly (readonly [string, RegExp])[];
export function loadAssistantNames(file?: URL): AssistantNames;
export function assistantOf(commit: CommitRecord, rules: readonly LabelRule[], names: AssistantNames): string | null;
export const LABEL_RULES_FILE: URL;
export function loadLabelRules(file?: URL): LabelRule[];
export function labelRulesOf(commit: CommitRecord, rules: readonly LabelRule[]): string[];
export function labelOf(commit: CommitRecord, rules: readonly LabelRule[], humanBefore: number, isAutomation?: (commit: CommitRecord) => boolean): 'assistant' | 'human' | null;
export function stripAttribution<C extends CommitRecord>(commit: C, rules: readonly LabelRule[]): C;
export function proseLines(commit: CommitRecord, rules: readonly LabelRule[]): string[];
export function originOf(commit: CommitRecord, rules: readonly LabelRule[]): 'written' | 'carried' | null;
