import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from './vendor/prom-client.js';

/** Where the two job gauges read their values when /metrics is scraped. */
export interface JobGaugeSource {
  activeJobs(): number;
  queueDepth(): Promise<number>;
}

/** The seven metrics of the interface under the `cadence_` prefix (docs/http-api.md, GET /health and GET /metrics), on a private registry. */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly jobsTotal = new Counter({
    name: 'cadence_jobs_total',
    help: 'Jobs processed, by final status',
    labelNames: ['status'],
    registers: [this.registry],
  });
  private jobSource: JobGaugeSource | null = null;
  // Read at scrape time rather than set on every submit and take: a shared queue (Redis) would
  // otherwise cost a round trip per job, and the value is exact when it is read.
  readonly jobsActive = new Gauge({
    name: 'cadence_jobs_active',
    help: 'Jobs being processed',
    registers: [this.registry],
    collect: () => this.readJobsActive(),
  });
  readonly queueDepth = new Gauge({
    name: 'cadence_queue_depth',
    help: 'Jobs waiting for a worker',
    registers: [this.registry],
    collect: () => this.readQueueDepth(),
  });
  readonly jobDuration = new Histogram({
    name: 'cadence_jobs_duration_seconds',
    help: 'Job duration from start to end',
    buckets: [0.1, 1, 5],
    registers: [this.registry],
  });
  readonly analysisErrors = new Counter({
    name: 'cadence_analysis_errors_total',
    help: 'Analyses that failed',
    registers: [this.registry],
  });
  readonly cacheHits = new Counter({
    name: 'cadence_cache_hits_total',
    help: 'Result cache hits',
    registers: [this.registry],
  });
  readonly cacheMisses = new Counter({
    name: 'cadence_cache_misses_total',
    help: 'Result cache misses',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    for (const status of ['completed', 'failed', 'cancelled', 'timeout']) this.jobsTotal.inc({ status }, 0);
  }

  /** The job manager registers itself once; until then both gauges read 0. */
  readJobGaugesFrom(source: JobGaugeSource): void {
    this.jobSource = source;
  }

  private readJobsActive(): void {
    this.jobsActive.set(this.jobSource?.activeJobs() ?? 0);
  }

  private async readQueueDepth(): Promise<void> {
    this.queueDepth.set(this.jobSource ? await this.jobSource.queueDepth() : 0);
  }

  async countOf(counter: Counter, labels?: Record<string, string>): Promise<number> {
    const data = await counter.get();
    const match = data.values.find(
      (v) => !labels || Object.entries(labels).every(([k, value]) => v.labels[k] === value),
    );
    return match?.value ?? 0;
  }
}
