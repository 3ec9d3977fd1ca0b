/** The operational code of a failed forge call: credentials, rate limit, or the forge itself. */
export function forgeErrorCode(error: unknown): string {
  const e = error as {
    status?: number;
    message?: string;
    response?: { headers?: Record<string, string | undefined> };
  } | null;
  const status = typeof e?.status === 'number' ? e.status : 0;
  const headers = e?.response?.headers ?? {};
  if (
    status === 429 ||
    (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(e?.message ?? '')))
  )
    return 'ERR_FORGE_RATE_LIMIT';
  if (status === 401 || status === 403 || status === 404) return 'ERR_FORGE_AUTH';
  if (status >= 500 || status === 0) return 'ERR_FORGE_UNAVAILABLE';
  return 'ERR_REPORTER_FAILED';
}
