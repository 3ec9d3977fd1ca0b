import type { EmittedEvent } from '@cadence-detect/engine';

/**
 * One status line on a terminal's stderr, rewritten in place as the analysis goes (never in piped
 * output; docs/cli.md). Indeterminate work — a clone, a fetch — has no bar to fill, so a line
 * that says what is happening serves better than a progress-bar library here.
 */
export function progressLine(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }): {
  onEvent(event: EmittedEvent): void;
  clear(): void;
} {
  if (!stream.isTTY) return { onEvent: () => undefined, clear: () => undefined };
  let shown = false;
  const show = (text: string): void => {
    shown = true;
    const width = stream.columns ?? 80;
    stream.write(`\r\x1b[K${text.slice(0, Math.max(10, width - 1))}`);
  };
  return {
    onEvent(event) {
      switch (event.event) {
        case 'start':
          show(`analyzing ${event.repo ?? event.url ?? ''}`);
          break;
        case 'fetch':
          show(event.message);
          break;
        case 'progress':
          // While reading, commits_analyzed counts the commits read; once strategies run, each
          // finished strategy says how much of the judging is done.
          if (event.strategy !== undefined && event.strategies_total !== undefined)
            show(
              `judging ${event.total_commits} ${event.total_commits === 1 ? 'commit' : 'commits'}: ${event.strategy} done, ${event.strategies_total > 0 ? Math.round((100 * (event.strategies_done ?? 0)) / event.strategies_total) : 100}% of the strategies`,
            );
          else show(`reading commits: ${event.commits_analyzed} of ${event.total_commits}`);
          break;
        case 'strategy':
          show(`${event.name}: score ${event.score.toFixed(2)}`);
          break;
        case 'ai_analysis':
          show(event.in_progress ? 'asking the AI provider…' : 'AI analysis done');
          break;
        default:
          break;
      }
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
