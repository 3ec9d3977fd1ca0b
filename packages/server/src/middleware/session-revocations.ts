/**
 * Sessions ended before their expiry (DELETE /session): remembered until the cookie would have
 * expired anyway, so a copied cookie stops working when its owner signs out. In memory they are
 * lost on restart (the cookie then works again until its expiry); on Redis every server of a
 * deployment shares them.
 */
export interface SessionRevocations {
  /** `expiresAt`: the cookie's own expiry, epoch seconds; nothing need be kept after it. */
  revoke(id: string, expiresAt: number): Promise<void>;
  isRevoked(id: string): Promise<boolean>;
}

export class InMemorySessionRevocations implements SessionRevocations {
  private readonly revoked = new Map<string, number>();

  async revoke(id: string, expiresAt: number): Promise<void> {
    const now = Date.now() / 1000;
    for (const [known, expiry] of this.revoked) if (expiry <= now) this.revoked.delete(known);
    this.revoked.set(id, expiresAt);
  }

  async isRevoked(id: string): Promise<boolean> {
    const expiry = this.revoked.get(id);
    return expiry !== undefined && expiry > Date.now() / 1000;
  }
}
