// CPU time from Linux's /proc, for the benchmarks that charge work to a process or a thread.
import { readFileSync } from 'node:fs';

/** USER_HZ: /proc counts CPU time in hundredths of a second. */
export const TICKS_PER_SECOND = 100;

/**
 * User and system ticks from a `stat` file: `/proc/<pid>/stat` (every thread of the process) or
 * `/proc/<pid>/task/<tid>/stat` (one thread). The command name may hold spaces and parentheses,
 * so the fields are counted from the last `)`.
 */
export function statTicks(path) {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}
