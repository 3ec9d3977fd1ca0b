import type { AnalysisEvent, AnalysisResult, JobInfo, ReportOutcome, Thresholds } from '@cadence-detect/plugin-sdk';
import type { NetworkPolicy } from '@cadence-detect/network-guard';

export type AnalysisRequest =
  | {
      readonly kind: 'repository';
      readonly url: string;
      readonly branch?: string | null;
      /** A push: analyze `before..after`, judged against the history before it. */
      readonly range?: { readonly before: string | null; readonly after: string };
      /**
       * A pull or merge request: its head's ref (`refs/pull/N/head`, `refs/merge-requests/N/head`),
       * fetched from the base repository; `branch` is the target branch and, without a `before`,
       * the range starts at the merge base of the two: exactly the request's own commits.
       */
      readonly ref?: string;
      /**
       * A push whose one commit squashes a request (the forge says so): its original commits, at
       * `ref` (head `head`), are analyzed instead when they can still be fetched; else the push as is.
       */
      readonly squash?: { readonly commit: string; readonly request: number; readonly ref: string; readonly head: string };
      readonly thresholds?: Partial<Thresholds>;
      /**
       * `all`: every author in `authors` rather than the 50 with the most commits (the organisation
       * view counts authors exactly across repositories).
       */
      readonly authors?: 'top' | 'all';
      /** Only commits authored from this time (ISO 8601) are judged; earlier ones still feed the baselines. */
      readonly since?: string;
    }
  | { readonly kind: 'website'; readonly url: string };

export type EmittedEvent = AnalysisEvent & { readonly type: AnalysisEvent['event'] };

/** In this process (answers at once) or shared through Redis (answers later). */
export interface ResultCache {
  get(key: string): AnalysisResult | undefined | Promise<AnalysisResult | undefined>;
  set(key: string, result: AnalysisResult): void | Promise<void>;
}

export interface AnalyzeOptions {
  readonly signal?: AbortSignal;
  /** Every event of the analysis, `type` mirroring `event` (docs/http-api.md, GET or POST /api/stream). */
  readonly onEvent?: (event: EmittedEvent) => void;
  /** null: no network guard (the CLI runs as its user, docs/git-source.md and docs/deploy.md). */
  readonly network: NetworkPolicy | null;
  readonly allowLocalPaths: boolean;
  readonly cache?: ResultCache;
  /** The server's job this analysis runs for (reporters read it); absent for the CLI. */
  readonly job?: JobInfo;
  /** Where reporters' outcomes go (they may arrive after the analysis has returned). */
  readonly onReport?: (outcome: ReportOutcome) => void;
}
