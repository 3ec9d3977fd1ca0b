/** A stream message: an engine event, or the job's own `complete` / `error`. */
export type JobEvent = Record<string, unknown> & { readonly event: string; readonly type: string };

/**
 * What streams read: each job's events as they happen. In memory today; Redis pub/sub later, so a
 * stream served by one process can follow a job run by another.
 */
export interface JobEventChannel {
  publish(jobId: string, event: JobEvent): void;
  /** Returns the function that stops the subscription. */
  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void;
}

export class InMemoryJobEventChannel implements JobEventChannel {
  private readonly listeners = new Map<string, Set<(event: JobEvent) => void>>();

  publish(jobId: string, event: JobEvent): void {
    for (const listener of this.listeners.get(jobId) ?? []) listener(event);
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void {
    let set = this.listeners.get(jobId);
    if (!set) {
      set = new Set();
      this.listeners.set(jobId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(jobId);
    };
  }
}
