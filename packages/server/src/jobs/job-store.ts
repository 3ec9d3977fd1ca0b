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
  create(job: Job): Promise<void>;
  get(id: string): Promise<Job | undefined>;
  /** Applies a change to a stored job; returns it, or undefined when the job is gone. */
  update(id: string, change: (job: Job) => void): Promise<Job | undefined>;
  /** Forgets a job that never started (a submit refused after its record was made). */
  delete(id: string): Promise<void>;
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

  constructor(private readonly maxJobs: number) {}

  async create(job: Job): Promise<void> {
    this.jobs.set(job.id, job);
    if (isFinal(job.status)) this.ended.add(job.id);
    this.evict();
  }

  async delete(id: string): Promise<void> {
    this.jobs.delete(id);
    this.ended.delete(id);
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
    const all = [...this.jobs.values()];
    let skipped = 0;
    for (let i = all.length - 1; i >= 0 && matches.length < query.limit; i--) {
      const job = all[i]!;
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
    for (const id of this.ended) {
      if (this.jobs.size <= this.maxJobs) break;
      this.ended.delete(id);
      this.jobs.delete(id);
    }
  }
}
