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
  private readonly waiting: string[] = [];

  constructor(private readonly capacity: number) {}

  async offer(id: string): Promise<boolean> {
    if (this.waiting.length >= this.capacity) return false;
    this.waiting.push(id);
    return true;
  }

  async take(): Promise<string | null> {
    return this.waiting.shift() ?? null;
  }

  async remove(id: string): Promise<boolean> {
    const index = this.waiting.indexOf(id);
    if (index < 0) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  async depth(): Promise<number> {
    return this.waiting.length;
  }

  async hasRoom(): Promise<boolean> {
    return this.waiting.length < this.capacity;
  }
}
