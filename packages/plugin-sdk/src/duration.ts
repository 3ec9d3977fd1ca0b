/**
 * A duration as configuration files write it, `500ms`, `2s`, `1m`, `1h` (or a bare number of
 * milliseconds), in milliseconds; NaN when malformed. The host's own settings and a plugin's
 * (the AI plugin's `retry_backoff_initial`) read durations the same way.
 * @since 2.0
 */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : NaN;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  if (!match) return NaN;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 'ms').toLowerCase();
  const factor = unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1000 : 1;
  return Math.round(amount * factor);
}
