/**
 * Bytes that webhook bodies may hold in memory before their signature is checked, all requests
 * together: each body may be 25 MiB (GitHub's cap), so without a shared bound a few hundred
 * unauthenticated senders could make the server buffer gigabytes.
 */
export class UnverifiedBytes {
  private held = 0;

  constructor(readonly capacity: number) {}

  /** Reserves `bytes`; false when that would pass the capacity (the caller answers 503). */
  tryReserve(bytes: number): boolean {
    if (this.held + bytes > this.capacity) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}
