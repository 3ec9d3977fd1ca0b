/**
 * Gathers the calls made within one turn of the event loop's work into one Redis command. Under
 * load, a reply from Redis resumes a dozen requests at once, and each then asked Redis for its
 * own job record and queue entry: a command, a socket write and a wake of Redis per request. The
 * first call of a turn schedules the flush on `process.nextTick`, which runs once the promise
 * continuations resumed by that reply have all run, so they share one command. A lone call waits
 * for nothing but that tick.
 *
 * `flush` answers one result per item, in order; when it throws, every call of the batch rejects
 * with its error (Redis away: each request answers 503 as it would alone). A batch holds at most
 * `maxItems`, so that no single script keeps Redis from its other clients for long.
 */
export class TurnBatch<Item, Result> {
  private pending: Array<{ item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }> = [];

  constructor(
    private readonly flush: (items: Item[]) => Promise<Result[]>,
    private readonly maxItems = 64,
  ) {}

  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const batch = this.pending;
      const size = batch.push({ item, resolve, reject });
      if (size === 1) process.nextTick(() => void this.run(batch));
      else if (size === this.maxItems) void this.run(batch);
    });
  }

  private async run(batch: TurnBatch<Item, Result>['pending']): Promise<void> {
    // Already sent: it filled up before its tick came.
    if (batch !== this.pending) return;
    this.pending = [];
    try {
      const results = await this.flush(batch.map((entry) => entry.item));
      // A missing result must not read as one (for the job store, `undefined` means "created").
      if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} got ${results.length} results`);
      results.forEach((result, i) => batch[i]?.resolve(result));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
