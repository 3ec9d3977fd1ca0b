import { EventEmitter } from 'node:events';
import type { OperationalCode } from '@cadence-detect/errors';

/**
 * Cancel requests for running jobs, heard by every process that may be running them: the one that
 * is aborts it. In this process (InMemoryJobCancels) or over Redis pub/sub (RedisJobCancels).
 */
export interface JobCancels {
  request(jobId: string, code: OperationalCode): Promise<void>;
  /** Returns the function that stops listening. */
  listen(listener: (jobId: string, code: OperationalCode) => void): () => void;
  /** A cancel asked before the job's worker was listening (it checks when it starts the job). */
  requested(jobId: string): Promise<OperationalCode | null>;
}

export class InMemoryJobCancels implements JobCancels {
  private readonly emitter = new EventEmitter();

  async request(jobId: string, code: OperationalCode): Promise<void> {
    this.emitter.emit('cancel', jobId, code);
  }

  listen(listener: (jobId: string, code: OperationalCode) => void): () => void {
    this.emitter.on('cancel', listener);
    return () => this.emitter.off('cancel', listener);
  }

  /** In one process a cancel finds the job waiting or running: nothing is ever missed. */
  async requested(): Promise<OperationalCode | null> {
    return null;
  }
}
