import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compares secrets in constant time. Both sides are hashed first, so inputs of different lengths
 * compare in the same time too (and never throw, as timingSafeEqual would on unequal lengths).
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; any malformed value is simply false. */
export function verifyHubSignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
  return constantTimeEqual(header.trim().toLowerCase(), expected);
}
