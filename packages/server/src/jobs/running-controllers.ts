import type { CadenceError } from '@cadence-detect/errors';

/**
 * The work this process runs, by job id, each with the controller that cancel, the job timeout and
 * shutdown trip. The job manager owns it; the parts get what they need of it: the runner enrolls
 * its jobs, the canceller finds one, shutdown aborts them all.
 */
export class RunningControllers {
  private readonly byId = new Map<string, AbortController>();

  get size(): number {
    return this.byId.size;
  }

  /** The controller of a job running here, if any. */
  find(id: string): AbortController | undefined {
    return this.byId.get(id);
  }

  /**
   * Enrolls a job's controller; returns the function that ends its enrolment, or null when the job
   * already runs here (a shared queue that handed a stalled job out again to its own runner).
   */
  enroll(id: string, controller: AbortController): (() => void) | null {
    if (this.byId.has(id)) return null;
    this.byId.set(id, controller);
    return () => {
      if (this.byId.get(id) === controller) this.byId.delete(id);
    };
  }

  abortAll(reason: CadenceError): void {
    for (const controller of this.byId.values()) controller.abort(reason);
  }
}
