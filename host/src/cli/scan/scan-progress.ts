import { displayLine } from '@cadence-detect/reports/display-text';

/**
 * One status line on a terminal's stderr while a scan runs: repositories done of total and the
 * ones being analyzed now (never in piped output, as `cadence analyze`'s line).
 */
export function scanProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  total: number,
): { started(name: string): void; finished(name: string): void; clear(): void } {
  if (!stream.isTTY) return { started: () => undefined, finished: () => undefined, clear: () => undefined };
  const running = new Set<string>();
  let done = 0;
  let shown = false;
  const show = (): void => {
    shown = true;
    const width = stream.columns ?? 80;
    const now = [...running].join(', ');
    stream.write(
      `\r\x1b[K${`scanning: ${done} of ${total} done${now ? `, now ${now}` : ''}`.slice(0, Math.max(10, width - 1))}`,
    );
  };
  return {
    started(name) {
      running.add(displayLine(name));
      show();
    },
    finished(name) {
      running.delete(displayLine(name));
      done++;
      show();
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
