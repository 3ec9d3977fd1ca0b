import { LRUCache } from 'lru-cache';

/**
 * Delivery ids already turned into jobs (decisions §5: a redelivery points at the first job).
 * Bounded: the most recent 100,000 ids. In memory today; Redis SET NX later.
 */
export interface DeliveryMemory {
  /** Records `deliveryId` → `jobId` unless already known; returns the earlier job id when it was. */
  claim(deliveryId: string, jobId: () => Promise<string>): Promise<{ jobId: string; duplicate: boolean }>;
}

export class InMemoryDeliveryMemory implements DeliveryMemory {
  private readonly seen = new LRUCache<string, string>({ max: 100_000 });
  /** Deliveries whose job is being created: a redelivery arriving meanwhile waits for the same job. */
  private readonly pending = new Map<string, Promise<string>>();

  async claim(deliveryId: string, createJob: () => Promise<string>): Promise<{ jobId: string; duplicate: boolean }> {
    // Awaited only when there is something to wait for: every webhook passes here.
    const pending = this.pending.get(deliveryId);
    const earlier = this.seen.get(deliveryId) ?? (pending ? await pending.catch(() => undefined) : undefined);
    if (earlier) return { jobId: earlier, duplicate: true };
    const creating = createJob();
    this.pending.set(deliveryId, creating);
    try {
      const jobId = await creating;
      this.seen.set(deliveryId, jobId);
      return { jobId, duplicate: false };
    } finally {
      // A job that could not be created (overload) is not remembered: a redelivery may try again.
      this.pending.delete(deliveryId);
    }
  }
}
