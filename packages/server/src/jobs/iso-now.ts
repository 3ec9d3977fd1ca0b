/**
 * The current time as an ISO 8601 string, the form every job timestamp takes. Formatting a Date
 * costs about a microsecond; under a burst of webhooks a dozen jobs are created in the same
 * millisecond, and they share one string.
 */
let lastMs = Number.NaN;
let lastIso = '';

export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
