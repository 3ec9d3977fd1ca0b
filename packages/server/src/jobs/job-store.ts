import { itemAt } from '@cadence-detect/errors';
import { RecentDeliveries } from '../webhooks/recent-deliveries.js';
import { isFinal, type Job, type JobStatus } from './job.js';

export interface JobQuery {
  readonly limit: number;
  readonly offset: number;
  readonly status?: JobStatus;
  readonly repo?: string;
}

/**
 * Where jobs live. In memory today; a Redis-backed store shares jobs between server processes
 * later, so every method is asynchronous and nothing above this interface may hold a Job between
 * calls expecting it to change by itself.
 */
export interface JobStore {
  /**
   * Records a new job. With `delivery` (a forge's delivery id, docs/http-api.md, POST /webhooks/github), only if no job was
   * recorded for that id before, in the same atomic step: a redelivery reaching any server at the
   * same moment gets one job between them. Returns the earlier job's id when there was one (and
   * then records nothing); the claim is remembered for days, longer than forges redeliver.
   */
  create(job: Job, delivery?: string): Promise<string | undefined>;
  get(id: string): Promise<Job | undefined>;
  /** Applies a change to a stored job; returns it, or undefined when the job is gone. */
  update(id: string, change: (job: Job) => void): Promise<Job | undefined>;
  /**
   * Forgets a job that never started (a submit refused after its record was made), and the
   * `delivery` claim it made, so that the forge's redelivery may try again.
   */
  delete(id: string, delivery?: string): Promise<void>;
  /** Most recent first. */
  list(query: JobQuery): Promise<Job[]>;
  size(): Promise<number>;
}

/**
 * Keeps the most recent `maxJobs` jobs; when full, the job that ended longest ago goes first (a
 * queued or running job is never dropped). Results are capped before they get here (see
 * retained-result.ts), so memory stays bounded however large the analyzed repositories are.
 */
export class InMemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, Job>();
  /**
   * Ended jobs, in the order they ended: what eviction takes from. Scanning all jobs for an ended
   * one cost every new job a pass over the whole waiting queue once it was longer than `maxJobs`.
   */
  private readonly ended = new Set<string>();
  /**
   * Job ids in the order they were created, read from the newest: a page of `list` (GET /jobs, the
   * dashboard's feed every second) touches only the jobs it returns or skips, rather than copying
   * every job the store holds. Removed ids stay until the next compaction and are passed over.
   */
  private order: string[] = [];
  /** Delivery ids already turned into jobs: at least the most recent 100,000. */
  private readonly deliveries = new RecentDeliveries(100_000);

  constructor(private readonly maxJobs: number) {}

  async create(job: Job, delivery?: string): Promise<string | undefined> {
    if (delivery !== undefined) {
      const earlier = this.deliveries.get(delivery);
      if (earlier !== undefined) return earlier;
      this.deliveries.set(delivery, job.id);
    }
    if (!this.jobs.has(job.id)) this.order.push(job.id);
    this.jobs.set(job.id, job);
    if (isFinal(job.status)) this.ended.add(job.id);
    this.evict();
    return undefined;
  }

  async delete(id: string, delivery?: string): Promise<void> {
    if (delivery !== undefined) this.deliveries.release(delivery, id);
    this.jobs.delete(id);
    this.ended.delete(id);
    this.compact();
  }

  async get(id: string): Promise<Job | undefined> {
    return this.jobs.get(id);
  }

  async update(id: string, change: (job: Job) => void): Promise<Job | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    change(job);
    if (isFinal(job.status)) {
      this.ended.add(job.id);
      this.evict();
    }
    return job;
  }

  async list(query: JobQuery): Promise<Job[]> {
    const matches: Job[] = [];
    let skipped = 0;
    for (let i = this.order.length - 1; i >= 0 && matches.length < query.limit; i--) {
      const job = this.jobs.get(itemAt(this.order, i));
      if (!job) continue;
      if (query.status && job.status !== query.status) continue;
      if (query.repo && job.repo !== query.repo) continue;
      if (skipped++ < query.offset) continue;
      matches.push(job);
    }
    return matches;
  }

  async size(): Promise<number> {
    return this.jobs.size;
  }

  private evict(): void {
    if (this.jobs.size <= this.maxJobs) return;
    for (const id of this.ended) {
      if (this.jobs.size <= this.maxJobs) break;
      this.ended.delete(id);
      this.jobs.delete(id);
    }
    this.compact();
  }

  /** Drops removed ids from the creation order once they outnumber the jobs (amortized: rare). */
  private compact(): void {
    if (this.order.length > 2 * this.jobs.size + 1024) this.order = this.order.filter((id) => this.jobs.has(id));
  }
}
