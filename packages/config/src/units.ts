/** `500ms`, `2s`, `1m`, `1h` (or a bare number of milliseconds) in milliseconds; NaN when malformed. */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : NaN;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  if (!match) return NaN;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 'ms').toLowerCase();
  const factor = unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1000 : 1;
  return Math.round(amount * factor);
}

/** `500m`, `2g`, `64k`, `1024` (bytes, binary multiples) in bytes; NaN when malformed. */
export function parseSize(value: string | number): number {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : NaN;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg])?b?\s*$/i.exec(value);
  if (!match) return NaN;
  const unit = (match[2] ?? '').toLowerCase();
  const factor = unit === 'g' ? 1024 ** 3 : unit === 'm' ? 1024 ** 2 : unit === 'k' ? 1024 : 1;
  return Math.round(Number(match[1]) * factor);
}
