import type { ScanChild, ScanProgress } from '../jobs/job.js';

/** Writes a scan's progress and children to its job's record (the job manager's `recordScanProgress`). */
export type ScanProgressWriter = (progress: ScanProgress, children: ScanChild[]) => Promise<void>;

/** How often a scan writes its progress to the organization job's record, at most. */
const WRITE_EVERY_MS = 500;

/**
 * An organization job's progress and children as its scan keeps them, written to the job's record
 * at most every WRITE_EVERY_MS: the record holds every repository, and a write per repository
 * would rewrite a large organization's record thousands of times (Redis stores a job whole).
 * Events still go out per repository; the record catches up within the interval.
 */
export class ScanRecord {
  readonly progress: ScanProgress;
  readonly children: ScanChild[];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writeProgress: ScanProgressWriter,
    repositories: readonly string[],
  ) {
    this.progress = { total: repositories.length, done: 0, failed: 0 };
    this.children = repositories.map((repository) => ({
      repository,
      job_id: null,
      status: 'waiting',
      error_code: null,
    }));
  }

  /** Records a change soon (within the interval). */
  changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.write();
    }, WRITE_EVERY_MS);
  }

  /** Writes what is pending now, and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.write();
  }

  private write(): Promise<void> {
    const progress = { ...this.progress };
    const children = this.children.map((c) => ({ ...c }));
    // One write at a time, in order: a later snapshot never lands before an earlier one.
    this.writing = this.writing
      .then(() => this.writeProgress(progress, children))
      .then(
        () => undefined,
        () => undefined,
      );
    return this.writing;
  }
}
