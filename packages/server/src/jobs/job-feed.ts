import type { JobStore } from './job-store.js';
import { jobView, type Job } from './job.js';

/** How often the feed reads the latest jobs, and how many. */
const FEED_INTERVAL_MS = 1000;
const FEED_JOBS = 50;

/**
 * The server's job feed (GET /events): each change to one of the latest jobs (a new job, a status
 * change, its end), whichever process created or ran it. It reads the store, the one place every
 * server and worker writes to, once a second while anyone listens: one read per server however
 * many dashboards are open, and the same code on the memory and the Redis backends.
 */
export class JobFeed {
  private readonly listeners = new Set<(job: Record<string, unknown>) => void>();
  private seen: Map<string, string> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    private readonly store: JobStore,
    private readonly intervalMs = FEED_INTERVAL_MS,
  ) {}

  subscribe(listener: (job: Record<string, unknown>) => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.timer = setInterval(() => void this.read(), this.intervalMs);
      this.timer.unref();
      void this.read();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        this.seen = null;
      }
    };
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const jobs = await this.store.list({ limit: FEED_JOBS, offset: 0 });
      const before = this.seen;
      const seen = new Map(jobs.map((job) => [job.id, signature(job)]));
      // The first read is the baseline: a dashboard reads the list itself when it opens.
      if (before !== null) {
        for (const job of [...jobs].reverse()) {
          if (before.get(job.id) === seen.get(job.id)) continue;
          const view = jobView(job, 'list');
          for (const listener of [...this.listeners]) listener(view);
        }
      }
      this.seen = seen;
    } catch {
      // The store not answering (Redis away) is /health's news; the feed tries again next time.
    } finally {
      this.reading = false;
    }
  }
}

function signature(job: Job): string {
  return `${job.status}|${job.started_at ?? ''}|${job.finished_at ?? ''}|${job.branch ?? ''}`;
}
