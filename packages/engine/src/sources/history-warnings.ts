import type { AnalysisEvent } from '@cadence-detect/plugin-sdk';
import type { EngineLogger } from '../engine-logger.js';

/**
 * Says once, on the stream and in the log, what the history read had to leave out: file versions
 * the repository lacks (a damaged or partial clone), and a `.mailmap` too large to apply.
 */
export function reportReadProblems(
  read: {
    readonly unreadable?: { readonly commits: readonly string[]; readonly files: readonly string[] };
    readonly mailmapSkippedBytes?: number;
  },
  emit: (event: AnalysisEvent) => void,
  logger: EngineLogger,
): void {
  const { unreadable, mailmapSkippedBytes } = read;
  if (unreadable) {
    const files =
      unreadable.files.slice(0, 5).join(', ') +
      (unreadable.files.length > 5 ? `, and ${unreadable.files.length - 5} more` : '');
    emit({
      event: 'fetch',
      message: `the repository lacks versions of ${unreadable.files.length} file(s) (${files}): ${unreadable.commits.length} commit(s) judged without their lines`,
    });
    logger.warn('repository objects missing', { files: unreadable.files.length, commits: unreadable.commits.length });
  }
  if (mailmapSkippedBytes !== undefined) {
    const megabytes = (mailmapSkippedBytes / (1024 * 1024)).toFixed(1);
    emit({ event: 'fetch', message: `.mailmap is ${megabytes} MB, above 1 MB: authors are read without it` });
    logger.warn('.mailmap not applied', { bytes: mailmapSkippedBytes });
  }
}
