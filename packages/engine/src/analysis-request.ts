import type {
  AnalysisEvent,
  AnalysisRequest,
  AnalysisResult,
  JobInfo,
  ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import type { NetworkPolicy } from '@cadence-detect/network-guard';

/** The request type is the plugin API's (`prepareRequest` taps refine it): one definition. */
export type { AnalysisRequest };

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
  /**
   * A header git sends with the clone to URLs under `urlPrefix`: a forge token kept out of the URL,
   * the request and every record (`cadence scan` of private repositories).
   */
  readonly gitAuthorization?: { readonly urlPrefix: string; readonly header: string };
  /** Where reporters' outcomes go (they may arrive after the analysis has returned). */
  readonly onReport?: (outcome: ReportOutcome) => void;
  /** Each reason a plugin gave for keeping this result out of the cache (`context.keepOutOfCache`). */
  readonly onKeepOutOfCache?: (reason: string) => void;
}
