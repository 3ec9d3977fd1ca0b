export { parseDuration } from '@cadence-detect/plugin-sdk';

/** `500m`, `2g`, `64k`, `1024` (bytes, binary multiples) in bytes; NaN when malformed. */
export function parseSize(value: string | number): number {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : NaN;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg])?b?\s*$/i.exec(value);
  if (!match) return NaN;
  const unit = (match[2] ?? '').toLowerCase();
  const factor = unit === 'g' ? 1024 ** 3 : unit === 'm' ? 1024 ** 2 : unit === 'k' ? 1024 : 1;
  return Math.round(Number(match[1]) * factor);
}
