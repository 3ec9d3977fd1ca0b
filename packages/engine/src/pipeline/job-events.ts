import type { JobFailure, JobStart } from '@cadence-detect/plugin-sdk';
import { redactCredentials } from '@cadence-detect/errors';
import type { AnalysisRequest } from '../analysis-request.js';
import { asJobError } from '../cancellation.js';
import type { EngineParts } from './engine-parts.js';
import type { RunContext } from './run-context.js';

/** A job's reporters start (a `pending` status); the analysis does not wait for them. */
export function announceStart(parts: EngineParts, request: AnalysisRequest, run: RunContext): void {
  if (!run.job) return;
  const start: JobStart = Object.freeze({
    job: run.job,
    request: Object.freeze({ kind: request.kind, url: redactCredentials(request.url) }),
    logger: parts.log,
    recordReport: run.recordReport,
  });
  void parts.hooks.jobStart.promise(start);
}

/** A job that ends without a result: its reporters turn `pending` into an error. Not awaited. */
export function announceFailure(parts: EngineParts, error: unknown, run: RunContext): void {
  if (!run.job) return;
  const failure = asJobError(error, run.signal);
  const event: JobFailure = Object.freeze({
    job: run.job,
    error: Object.freeze({ code: failure.code, message: redactCredentials(failure.message) }),
    logger: parts.log,
    recordReport: run.recordReport,
  });
  void parts.hooks.jobFailed.promise(event);
}
