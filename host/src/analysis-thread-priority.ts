// Imported first by an analysis thread, before the engine loads: the thread (and the git processes
// it starts, which inherit its priority) yields the CPU to the server's HTTP event loop. Loading the
// engine takes seconds of CPU and an analysis can take minutes; on a small machine either would
// otherwise delay webhook answers by as long. Linux sets a priority per thread: /proc/thread-self
// names this thread's id. Elsewhere, or where it is not allowed, the thread keeps the process's.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the process (the HTTP thread) an analysis thread is: background work. */
const ANALYSIS_THREAD_NICENESS_STEP = 10;

try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isSafeInteger(threadId) && threadId > 0)
    setPriority(threadId, Math.min(19, getPriority(threadId) + ANALYSIS_THREAD_NICENESS_STEP));
} catch {
  // Not Linux, or not permitted: the analysis runs at the process's priority.
}
