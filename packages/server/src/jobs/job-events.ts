/** A stream message: an engine event, or the job's own `complete` / `error`. */
export type JobEvent = Record<string, unknown> & { readonly event: string; readonly type: string };

/**
 * What streams read: each job's events. A subscriber first gets the events the job already had
 * (those still kept), then each new one as it happens, so following a job that started elsewhere
 * or a moment ago misses nothing. In this process (InMemoryJobEventChannel) or on Redis streams,
 * where a stream served by one server follows a job run by another worker.
 */
export interface JobEventChannel {
  publish(jobId: string, event: JobEvent): void;
  /** Returns the function that stops the subscription. */
  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void;
}

/** `complete` or `error`: the last event of every job. */
export function isEndEvent(event: JobEvent): boolean {
  return event.event === 'complete' || event.event === 'error';
}

/** Events kept per job for late subscribers, and how long after its end. */
const KEPT_EVENTS = 1000;
// After its end a job's record has its outcome (what GET /jobs/:id/events sends for a finished job):
// the events stay only long enough to bridge a follower that read the record just before the end.
const KEPT_AFTER_END_MS = 5_000;

export class InMemoryJobEventChannel implements JobEventChannel {
  private readonly listeners = new Map<string, Set<(event: JobEvent) => void>>();
  private readonly kept = new Map<string, JobEvent[]>();

  publish(jobId: string, event: JobEvent): void {
    let list = this.kept.get(jobId);
    if (!list) {
      list = [];
      this.kept.set(jobId, list);
    }
    // A long job keeps its first events and its latest: the oldest progress lines go first.
    if (list.length >= KEPT_EVENTS) list.splice(1, 1);
    list.push(event);
    for (const listener of [...(this.listeners.get(jobId) ?? [])]) listener(event);
    if (isEndEvent(event)) {
      // Nothing follows a job's end: its listeners go, its events stay a few seconds for late followers.
      this.listeners.delete(jobId);
      setTimeout(() => this.kept.delete(jobId), KEPT_AFTER_END_MS).unref();
    }
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void {
    const earlier = [...(this.kept.get(jobId) ?? [])];
    for (const event of earlier) listener(event);
    if (earlier.some(isEndEvent)) return () => undefined;
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
