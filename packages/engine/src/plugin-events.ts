import type { AnalysisEvent } from '@cadence-detect/plugin-sdk';

/** Events that open or end a job's stream: the host's alone (a plugin's `complete` would end every client's stream mid-job). */
const HOST_ONLY_EVENTS: ReadonlySet<string> = new Set(['start', 'complete', 'error']);

/** What `context.events.emit` does for plugins: passes their events on, drops the host's own with a warning. */
export function pluginEventEmitter(
  emit: (event: AnalysisEvent) => void,
  warn: (message: string, fields: Record<string, unknown>) => void,
): (event: AnalysisEvent) => void {
  return (event) => {
    const name = (event as { event?: unknown } | null)?.event;
    if (typeof name !== 'string' || HOST_ONLY_EVENTS.has(name)) {
      warn('a plugin emitted an event only the host may emit; dropped', { event: String(name) });
      return;
    }
    emit(event);
  };
}
