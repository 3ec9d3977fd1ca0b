export { createServer, inMemoryBackends, type CadenceServer, type ServerBackends, type ServerOptions } from './create-server.js';
export { JobManager, type JobManagerOptions, type NewJob } from './jobs/job-manager.js';
export type { Job, JobStatus, JobSource } from './jobs/job.js';
export type { JobStore, JobQuery } from './jobs/job-store.js';
export type { JobQueue } from './jobs/job-queue.js';
export type { JobEventChannel, JobEvent } from './jobs/job-events.js';
export type { DeliveryMemory } from './webhooks/delivery-memory.js';
export type { RateLimiterFactory } from './middleware/rate-limit.js';
