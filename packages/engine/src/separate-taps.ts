import type { Hook } from 'tapable';

type AnyHook = Pick<Hook<unknown, unknown>, 'taps'>;

/**
 * Calls each tap of a side-effect hook on its own, so one that throws (or rejects, or calls back
 * with an error) is reported under its own name and the taps after it still run. tapable's own
 * `promise()` stops a series at the first error and leaves the rest of a parallel hook unheard.
 * `series`: one after another, in tap order (the `report` hook); otherwise all at once.
 */
export async function runTapsSeparately(
  hook: AnyHook,
  args: readonly unknown[],
  mode: 'series' | 'parallel',
  onFailure: (tapName: string, error: unknown) => void,
): Promise<void> {
  const run = (tap: AnyHook['taps'][number]): Promise<void> =>
    callTap(tap, args).catch((error: unknown) => onFailure(tap.name, error));
  if (mode === 'parallel') {
    await Promise.all(hook.taps.map(run));
    return;
  }
  for (const tap of hook.taps) await run(tap);
}

async function callTap(tap: AnyHook['taps'][number], args: readonly unknown[]): Promise<void> {
  if (tap.type === 'promise') {
    await (tap.fn as (...a: unknown[]) => Promise<unknown>)(...args);
  } else if (tap.type === 'async') {
    await new Promise<void>((resolve, reject) => {
      (tap.fn as (...a: unknown[]) => void)(...args, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  } else {
    (tap.fn as (...a: unknown[]) => unknown)(...args);
  }
}
