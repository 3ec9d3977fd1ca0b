import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * Compares secrets in constant time (timingSafeEqual over equal-length buffers). A different length
 * answers false at once, never throws: what leaks is only the length of the expected value, which
 * for signatures is public (sha256= and 64 hex digits).
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

/** The webhook secret as a key, made once: createHmac then skips converting the string on every request. */
export function hubSignatureKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; any malformed value is simply false. */
export function verifyHubSignature(rawBody: string | Buffer, header: string | undefined, secret: string | KeyObject): boolean {
  if (!header) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
  return constantTimeEqual(header.trim().toLowerCase(), expected);
}
