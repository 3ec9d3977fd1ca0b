/**
 * The delivery ids of the most recent webhooks, each with its job's id: at least the last `keep`,
 * at most twice as many. Two generations of a Map: new ids go into the current one, and when it
 * holds `keep` the previous generation is dropped whole and the current one takes its place.
 * An LRU (lru-cache) did the same job with a linked list and its arrays updated on every webhook:
 * measured in turns against this (the server's memory backend under the webhook load benchmark, two
 * runs of five turns each), the server took 10% to 20% fewer pushes a second with it.
 * A delivery needs no recency order: a forge redelivers within hours, and any id is looked up
 * once or twice.
 */
export class RecentDeliveries {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  constructor(private readonly keep: number) {}

  get(delivery: string): string | undefined {
    return this.current.get(delivery) ?? this.previous.get(delivery);
  }

  set(delivery: string, jobId: string): void {
    if (this.current.size >= this.keep) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(delivery, jobId);
  }

  /** Forgets `delivery` if it still names `jobId` (a job withdrawn before it was queued). */
  release(delivery: string, jobId: string): void {
    if (this.current.get(delivery) === jobId) this.current.delete(delivery);
    if (this.previous.get(delivery) === jobId) this.previous.delete(delivery);
  }
}
