import { itemAt } from '@cadence-detect/errors';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { constantTimeEqual } from '@cadence-detect/forge-kit';
import type { SessionRevocations } from './session-revocations.js';

/** The dashboard's session cookie: HttpOnly, SameSite=Strict, never readable by a script or sent cross-site. */
export const SESSION_COOKIE = 'cadence_session';
const LIFETIME_SECONDS = 12 * 3600;

/**
 * A session is `v2.<id>.<expiry>.<mac>`: the token is entered once (POST /session) and exchanged
 * for it, so the browser never holds the token and `EventSource` works. The MAC key derives from
 * the API token, so every server of a deployment accepts the cookie and changing the token ends
 * every session. The random id lets DELETE /session end one session before its expiry: its id is
 * revoked until then (SessionRevocations). A cookie without an id (the first format) is refused.
 */
export class Sessions {
  private readonly key: Buffer;

  constructor(
    token: string,
    private readonly revocations: SessionRevocations,
  ) {
    this.key = createHash('sha256').update(`cadence-session\0${token}`).digest();
  }

  issue(now = Date.now()): { value: string; maxAge: number } {
    const id = randomBytes(16).toString('base64url');
    const expiry = Math.floor(now / 1000) + LIFETIME_SECONDS;
    return { value: `v2.${id}.${expiry}.${this.mac(id, expiry)}`, maxAge: LIFETIME_SECONDS };
  }

  /** A cookie this server issued, not expired and not signed out of. A revocation store that cannot answer accepts none. */
  async valid(value: string | undefined, now = Date.now()): Promise<boolean> {
    const session = this.authentic(value, now);
    if (!session) return false;
    return !(await this.revocations.isRevoked(session.id).catch(() => true));
  }

  /** Ends the session `value` names, if it is one of ours; a forged or expired cookie ends nothing. */
  async end(value: string | undefined): Promise<void> {
    const session = this.authentic(value);
    if (session) await this.revocations.revoke(session.id, session.expiry);
  }

  /** The cookie a request carries, if any. */
  static presented(ctx: Context): string | undefined {
    return ctx.cookies.get(SESSION_COOKIE) ?? undefined;
  }

  private authentic(value: string | undefined, now = Date.now()): { id: string; expiry: number } | null {
    const match = /^v2\.([A-Za-z0-9_-]{22})\.(\d{10,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
    if (!match) return null;
    const id = itemAt(match, 1);
    const expiry = Number(match[2]);
    return expiry > now / 1000 && constantTimeEqual(itemAt(match, 3), this.mac(id, expiry)) ? { id, expiry } : null;
  }

  private mac(id: string, expiry: number): string {
    return createHmac('sha256', this.key).update(`v2.${id}.${expiry}`).digest('base64url');
  }
}

/** A cookie-authenticated request that changes something must come from this origin (the browser says so). */
export function sameOriginRequest(ctx: Context): boolean {
  const site = ctx.get('sec-fetch-site').toLowerCase();
  const origin = ctx.get('origin').toLowerCase();
  const own = `${ctx.protocol}://${ctx.host}`.toLowerCase();
  return (site === '' || site === 'same-origin') && origin === own;
}
