/**
 * Bytes that webhook bodies hold in memory before their signature is checked, all requests
 * together and per client: each body may be 25 MiB (GitHub's cap), so without a shared bound a few
 * hundred unauthenticated senders could make the server buffer gigabytes. Bytes are counted as
 * they arrive, never as a Content-Length declares them: a sender that declares 25 MiB and trickles
 * one byte holds one byte. One client (its address, as clientAddress computes it) holds at most
 * `perClient`, so a few addresses cannot take the whole budget from everyone else.
 */
export class UnverifiedBytes {
  private held = 0;
  private readonly byClient = new Map<string, number>();
  /** What one client may hold: max(25 MiB, capacity / 8). */
  readonly perClient: number;

  constructor(readonly capacity: number) {
    this.perClient = Math.max(CLIENT_FLOOR, Math.floor(capacity / 8));
  }

  /** Reserves `bytes` for `client`; false when that would pass the capacity or the client's share (the caller answers 503). */
  tryReserve(client: string, bytes: number): boolean {
    const mine = this.byClient.get(client) ?? 0;
    if (this.held + bytes > this.capacity || mine + bytes > this.perClient) return false;
    this.held += bytes;
    this.byClient.set(client, mine + bytes);
    return true;
  }

  release(client: string, bytes: number): void {
    if (bytes <= 0) return;
    this.held = Math.max(0, this.held - bytes);
    const left = (this.byClient.get(client) ?? 0) - bytes;
    if (left > 0) this.byClient.set(client, left);
    else this.byClient.delete(client);
  }

  /** Bytes held now, all clients together (tests and metrics). */
  get total(): number {
    return this.held;
  }
}

/** GitHub's cap on one body: a client may always hold one whole delivery. */
const CLIENT_FLOOR = 25 * 1024 * 1024;
