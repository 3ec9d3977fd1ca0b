import { createHash, createHmac } from 'node:crypto';
import type { Context } from 'koa';
import { constantTimeEqual } from '../webhooks/constant-time.js';

/** The dashboard's session cookie: HttpOnly, SameSite=Strict, never readable by a script or sent cross-site. */
export const SESSION_COOKIE = 'cadence_session';
const LIFETIME_SECONDS = 12 * 3600;

/**
 * A session is `v1.<expiry>.<mac>`: the token is entered once (POST /session) and exchanged for
 * it, so the browser never holds the token and `EventSource` works. The MAC key derives from the
 * API token, so every server of a deployment accepts the cookie and changing the token ends every
 * session; nothing is stored.
 */
export class Sessions {
  private readonly key: Buffer;

  constructor(token: string) {
    this.key = createHash('sha256').update(`cadence-session\0${token}`).digest();
  }

  issue(now = Date.now()): { value: string; maxAge: number } {
    const expiry = Math.floor(now / 1000) + LIFETIME_SECONDS;
    return { value: `v1.${expiry}.${this.mac(expiry)}`, maxAge: LIFETIME_SECONDS };
  }

  valid(value: string | undefined, now = Date.now()): boolean {
    const match = /^v1\.(\d{10,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
    if (!match) return false;
    const expiry = Number(match[1]);
    return expiry > now / 1000 && constantTimeEqual(match[2]!, this.mac(expiry));
  }

  /** The cookie a request carries, if any. */
  static presented(ctx: Context): string | undefined {
    return ctx.cookies.get(SESSION_COOKIE) ?? undefined;
  }

  private mac(expiry: number): string {
    return createHmac('sha256', this.key).update(`v1.${expiry}`).digest('base64url');
  }
}

/** A cookie-authenticated request that changes something must come from this origin (the browser says so). */
export function sameOriginRequest(ctx: Context): boolean {
  const site = ctx.get('sec-fetch-site').toLowerCase();
  const origin = ctx.get('origin').toLowerCase();
  const own = `${ctx.protocol}://${ctx.host}`.toLowerCase();
  return (site === '' || site === 'same-origin') && origin === own;
}
