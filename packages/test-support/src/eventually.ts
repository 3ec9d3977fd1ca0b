/**
 * Waits until `probe` returns a value that is not undefined (or resolves to one), trying every
 * `everyMs`; fails naming `what` after `timeoutMs`. The one way tests wait for a condition, never a
 * fixed sleep.
 */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  options: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${options.timeoutMs ?? 20_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}
