import { abortError, CadenceError, redactCredentials, errorMessage } from '@cadence-detect/errors';

/** What a failed clone or fetch is called: a branch the remote lacks, or git's own error lines (credentials redacted). */
export function cloneError(error: unknown, signal: AbortSignal, url: string, branch?: string | null): CadenceError {
  if (signal.aborted) return abortError(signal);
  const text = errorMessage(error);
  if (/Remote branch .* not found|couldn't find remote ref/i.test(text)) {
    return new CadenceError('ERR_BRANCH_NOT_FOUND', {
      message: `Branch ${branch ? `${JSON.stringify(branch)} ` : ''}not found in ${redactCredentials(url)} (its branches: git ls-remote --heads <url>)`,
    });
  }
  const detail = redactCredentials(text)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^(fatal|error):/.test(l))
    .join(' ');
  return new CadenceError('ERR_GIT_CLONE_FAILED', {
    message: `Failed to clone ${redactCredentials(url)}${detail ? `: ${detail}` : ''}`,
  });
}
