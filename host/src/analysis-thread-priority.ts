// Imported first by an analysis thread, before the engine loads: the thread (and the git processes
// it starts, which inherit its priority) yields the CPU to the server's HTTP event loop. Loading the
// engine takes seconds of CPU and an analysis can take minutes; on a small machine either would
// otherwise delay webhook answers by as long. Linux sets a priority per thread: /proc/thread-self
// names this thread's id. Elsewhere, or where it is not allowed, the thread keeps the process's.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { analysisNicenessStep } from './analysis-niceness.js';

try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  const step = analysisNicenessStep(process.env.CADENCE_ANALYSIS_NICENESS);
  if (Number.isSafeInteger(threadId) && threadId > 0 && step > 0)
    setPriority(threadId, Math.min(19, getPriority(threadId) + step));
} catch {
  // Not Linux, or not permitted: the analysis runs at the process's priority.
}
