/**
 * Events of a running analysis (docs/http-api.md, GET or POST /api/stream). The engine mirrors `event` into `type` when it
 * emits, so a plugin only names `event`. The host's SSE streams write these as they come.
 */
export type AnalysisEvent =
  | { event: 'start'; repo?: string; url?: string }
  | { event: 'fetch'; message: string; branch?: string }
  | { event: 'parse'; elements: number }
  | {
      event: 'progress';
      /** Commits read so far while the history is read; all of them once strategies run. */
      commits_analyzed: number;
      total_commits: number;
      /** Set when a strategy just finished: its name and how many detections it made. */
      strategy?: string;
      detections?: number;
      /**
       * With `strategy`: how many of the analysis's strategies have finished, of how many.
       * @since 1.16
       */
      strategies_done?: number;
      strategies_total?: number;
    }
  | { event: 'detection'; commit?: string; element?: string; suspicion: string; strategy: string; severity: string }
  | { event: 'strategy'; name: string; score: number; strategy?: string; detections?: number }
  | { event: 'ai_analysis'; in_progress: boolean; items?: number; error?: string }
  | {
      event: 'complete';
      job_id?: string;
      suspicious_count?: number;
      strategies_triggered?: number;
      overall_score: number;
      result: unknown;
    }
  | { event: 'error'; error: string; message: string };

export type AnalysisEventName = AnalysisEvent['event'];

/** Where a plugin sends events; the host turns them into stream messages. */
export interface EventChannel {
  emit(event: AnalysisEvent): void;
}
