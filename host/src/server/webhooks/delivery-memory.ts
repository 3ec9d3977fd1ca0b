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
  private readonly seen = new LRUCache<string, Promise<string>>({ max: 100_000 });

  async claim(deliveryId: string, createJob: () => Promise<string>): Promise<{ jobId: string; duplicate: boolean }> {
    const earlier = this.seen.get(deliveryId);
    if (earlier) return { jobId: await earlier, duplicate: true };
    const pending = createJob();
    this.seen.set(deliveryId, pending);
    try {
      return { jobId: await pending, duplicate: false };
    } catch (error) {
      // No job was created (overload): a redelivery may try again.
      this.seen.delete(deliveryId);
      throw error;
    }
  }
}
