import type { Redis } from 'ioredis';
import type { SessionRevocations } from '../../middleware/session-revocations.js';

/** Revoked session ids in Redis, each expiring with the cookie it ends: every server sees a sign-out. */
export class RedisSessionRevocations implements SessionRevocations {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async revoke(id: string, expiresAt: number): Promise<void> {
    const seconds = Math.max(1, Math.ceil(expiresAt - Date.now() / 1000));
    await this.redis.set(this.key(id), '1', 'EX', seconds);
  }

  async isRevoked(id: string): Promise<boolean> {
    return (await this.redis.exists(this.key(id))) === 1;
  }

  private key(id: string): string {
    return `${this.prefix}:session-revoked:${id}`;
  }
}
