// Types of folds.mjs, for the test that checks it (tests/corpus/folds.test.ts).
export interface CorpusRow {
  readonly repo: string;
  readonly label: 'assistant' | 'human';
  readonly assistant: string | null;
  readonly origin: string | null;
  readonly hash: string;
  readonly explicit: boolean;
  readonly message: readonly [string, string];
  readonly features: readonly number[];
  readonly code: { readonly i: readonly number[]; readonly n: readonly number[] } | null;
}
export interface RepositoryFigures {
  readonly repo: string;
  readonly assistant: number;
  readonly human: number;
  readonly mean_p_assistant: number | null;
  readonly mean_p_human: number | null;
  readonly recall: number | null;
  readonly false_positive_rate: number | null;
}
export interface Validation {
  readonly commits: number;
  readonly auc: number;
  readonly by_repository: readonly RepositoryFigures[];
  readonly era_check: { readonly commits: number; readonly flagged: number; readonly false_positive_rate: number | null };
  readonly [figure: string]: unknown;
}
export function validate<R extends CorpusRow>(
  rows: readonly R[],
  options?: {
    log?: (line: string) => void;
    eraCheck?: readonly R[];
    alsoScore?: readonly R[];
    onScored?: (row: R, p: number, flagAt: number) => void;
    tokens?: { names: readonly string[]; unknownInHeldOut: readonly string[] };
    workers?: number;
  },
): Promise<Validation>;
