/**
 * Waits until `probe` returns (or resolves to) a value that is neither undefined nor false, trying
 * every `everyMs`; fails naming `what` after `timeoutMs` (a function names the latest state seen).
 * The one way tests wait for a condition, never a fixed sleep.
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string | (() => string),
  options: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`still waiting for ${typeof what === 'string' ? what : what()} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}
