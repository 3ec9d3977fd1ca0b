/** How much nicer than the process (the HTTP thread) an analysis thread is by default: background work. */
const DEFAULT_NICENESS_STEP = 10;

/**
 * What `CADENCE_ANALYSIS_NICENESS` says is wrong with it (a whole number from 0 to 19), or null.
 * 0 runs analyses at the HTTP thread's priority (docs/deploy.md).
 */
export function nicenessProblem(value: string | undefined): string | null {
  if (value === undefined) return null;
  return /^\d{1,2}$/.test(value.trim()) && Number(value) <= 19
    ? null
    : `CADENCE_ANALYSIS_NICENESS must be a whole number from 0 to 19 (how much nicer analyses run than the HTTP thread; default ${DEFAULT_NICENESS_STEP}), got ${JSON.stringify(value.slice(0, 20))}`;
}

/** The step an analysis thread takes: the variable's when valid, else the default. */
export function analysisNicenessStep(value: string | undefined): number {
  return value !== undefined && nicenessProblem(value) === null ? Number(value) : DEFAULT_NICENESS_STEP;
}
