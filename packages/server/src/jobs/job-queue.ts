/**
 * Job ids waiting for a worker, bounded: `offer` answers false when the queue is full (the caller
 * answers 503 overloaded and creates nothing). In memory today; BullMQ later.
 */
export interface JobQueue {
  offer(id: string): Promise<boolean>;
  /** The next waiting id, or null when none waits. */
  take(): Promise<string | null>;
  /** Removes a waiting id (a cancelled job); false when it was not waiting. */
  remove(id: string): Promise<boolean>;
  depth(): Promise<number>;
  /** Whether one more job would fit (checked before a job is created). */
  hasRoom(): Promise<boolean>;
}

export class InMemoryJobQueue implements JobQueue {
  /** A Set keeps insertion order and makes take and remove O(1): an array's shift copies the whole queue once it is long. */
  private readonly waiting = new Set<string>();

  constructor(private readonly capacity: number) {}

  async offer(id: string): Promise<boolean> {
    if (this.waiting.size >= this.capacity) return false;
    this.waiting.add(id);
    return true;
  }

  async take(): Promise<string | null> {
    for (const id of this.waiting) {
      this.waiting.delete(id);
      return id;
    }
    return null;
  }

  async remove(id: string): Promise<boolean> {
    return this.waiting.delete(id);
  }

  async depth(): Promise<number> {
    return this.waiting.size;
  }

  async hasRoom(): Promise<boolean> {
    return this.waiting.size < this.capacity;
  }
}
