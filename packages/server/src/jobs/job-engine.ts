import type { Engine } from '@cadence-detect/engine';

/**
 * What the job manager needs of an engine: the analysis, wherever it runs, and `close` when it holds
 * something to let go of at shutdown (an AnalysisThreadPool's threads). An engine without `close`
 * (the engine itself, in this thread) holds nothing.
 */
export interface JobEngine extends Pick<Engine, 'analyze'> {
  close?(): Promise<void>;
}
