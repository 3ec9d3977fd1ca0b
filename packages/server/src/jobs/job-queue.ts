/**
 * Job ids waiting for a worker, bounded: `offer` answers false when the queue is full (the caller
 * answers 503 overloaded and creates nothing). In this process (InMemoryJobQueue) or shared through
 * Redis by servers and `cadence worker` processes (BullJobQueue).
 */
export interface JobQueue {
  offer(id: string): Promise<boolean>;
  /** Removes a waiting id (a cancelled job); false when it was not waiting. */
  remove(id: string): Promise<boolean>;
  /**
   * Whether the job was offered and is still the queue's: waiting (or, in BullMQ, taken by a
   * worker). Asked only when a redelivery meets a job that still says queued (JobIntake.receive).
   */
  holds(id: string): Promise<boolean>;
  depth(): Promise<number>;
  /** Whether one more job would fit (checked before a job is created). */
  hasRoom(): Promise<boolean>;
  /** Starts running waiting jobs with `run`, at most `concurrency` at once, until `stop`. */
  consume(concurrency: number, run: JobRunner): void;
  /**
   * Stops taking jobs, and resolves once the running ones have returned. Whether waiting jobs
   * outlive this process is the queue's: `shared` says so.
   */
  stop(): Promise<void>;
  /** True when waiting and handed-back jobs survive this process (other workers will run them). */
  readonly shared: boolean;
  /** Waiting ids taken out at shutdown of a queue that is not shared (they are cancelled). */
  drain(): Promise<string[]>;
  /** Jobs the queue gave up on because their worker stopped (a shared queue's stalled-job check). */
  onWorkerLost(listener: (id: string) => void): void;
}

/** What the queue's consumer does with one job: `hand-back` puts it back for another worker. */
export type JobRunner = (id: string) => Promise<'done' | 'hand-back'>;

export class InMemoryJobQueue implements JobQueue {
  readonly shared = false;
  /** A Set keeps insertion order and makes take and remove O(1): an array's shift copies the whole queue once it is long. */
  private readonly waiting = new Set<string>();
  private consumer: { concurrency: number; run: JobRunner } | null = null;
  private readonly running = new Set<Promise<unknown>>();
  private pumpScheduled = false;

  constructor(private readonly capacity: number) {}

  async offer(id: string): Promise<boolean> {
    if (this.waiting.size >= this.capacity) return false;
    this.waiting.add(id);
    // Started after the current I/O callbacks: the 202 goes out before the job's work begins. With
    // every worker busy nothing can start now; a finishing job pumps the queue.
    if (this.consumer && this.running.size < this.consumer.concurrency && !this.pumpScheduled) {
      this.pumpScheduled = true;
      setImmediate(() => {
        this.pumpScheduled = false;
        this.pump();
      });
    }
    return true;
  }

  async remove(id: string): Promise<boolean> {
    return this.waiting.delete(id);
  }

  async holds(id: string): Promise<boolean> {
    return this.waiting.has(id);
  }

  async depth(): Promise<number> {
    return this.waiting.size;
  }

  async hasRoom(): Promise<boolean> {
    return this.waiting.size < this.capacity;
  }

  consume(concurrency: number, run: JobRunner): void {
    this.consumer = { concurrency, run };
    this.pump();
  }

  async stop(): Promise<void> {
    this.consumer = null;
    await Promise.allSettled([...this.running]);
  }

  /** A worker of this queue is this process: when it dies, so does the queue. */
  onWorkerLost(): void {}

  async drain(): Promise<string[]> {
    const ids = [...this.waiting];
    this.waiting.clear();
    return ids;
  }

  private pump(): void {
    while (this.consumer && this.running.size < this.consumer.concurrency && this.waiting.size > 0) {
      const [id] = this.waiting;
      if (id === undefined) break;
      this.waiting.delete(id);
      const done = this.consumer
        .run(id)
        .catch(() => 'done')
        .finally(() => {
          this.running.delete(done);
          this.pump();
        });
      this.running.add(done);
    }
  }
}
