import { runGitCommand } from '@cadence-detect/git-source';
import type { AnalysisEvent } from '@cadence-detect/plugin-sdk';

/** Say how far reading has got in words every this many commits (a large history takes seconds). */
const READ_MESSAGE_EVERY = 10_000;

/**
 * The history read's progress: a `progress` event each time the reader reports (every 1,000
 * commits), `commits_analyzed` rising by commit against `total_commits` (one `git rev-list --count`
 * beside the read; no event until it is known), and a `fetch` sentence every 10,000 commits.
 */
export function readProgress(
  dir: string,
  rev: string,
  emit: (event: AnalysisEvent) => void,
  signal: AbortSignal,
): (read: number) => void {
  let total: number | null = null;
  runGitCommand(dir, ['rev-list', '--count', '--end-of-options', rev, '--'], signal)
    .then((counted) => {
      const value = Number(counted.stdout.trim());
      if (counted.code === 0 && Number.isSafeInteger(value) && value > 0) total = value;
    })
    // Progress is a courtesy: a count that fails leaves the read to its sentences.
    .catch(() => undefined);
  let nextMessage = READ_MESSAGE_EVERY;
  return (read) => {
    if (total !== null) emit({ event: 'progress', commits_analyzed: Math.min(read, total), total_commits: total });
    if (read < nextMessage) return;
    nextMessage += READ_MESSAGE_EVERY;
    emit({ event: 'fetch', message: `read ${read} commits` });
  };
}
