import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CadenceError, errorCode, errorMessage } from '@cadence-detect/errors';
import { parseRepositoryUrl } from '@cadence-detect/git-source';
import type { ScanTarget } from '@cadence-detect/organization';
import { CliError } from '../exit-codes.js';

export type { ScanTarget };

/** At most this many lines are read from a `--repos` file: a scan of more is a listing mistake. */
const MAX_LISTED = 10_000;

/**
 * `--repos <file>`: one repository URL or path a line; blank lines and `#` comments skipped; a
 * relative path is taken from the file's folder. A line the URL rules refuse (docs/git-source.md)
 * is kept as a refused entry, reported with its code while the others are scanned.
 */
export async function repositoriesFromFile(file: string, cwd: string): Promise<ScanTarget[]> {
  const full = path.resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch (error) {
    throw new CliError('usage', `cannot read --repos ${file}: ${errorCode(error) ?? 'error'}`);
  }
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line.length > 0);
  if (lines.length > MAX_LISTED)
    throw new CliError('usage', `--repos ${file} lists ${lines.length} repositories; at most ${MAX_LISTED}`);
  const base = path.dirname(full);
  return lines.map((line) => targetOf(line, base));
}

function targetOf(line: string, base: string): ScanTarget {
  const url = isUrlLike(line) ? line : path.resolve(base, line);
  try {
    const locator = parseRepositoryUrl(url, { allowLocalPaths: true });
    return { repository: locator.repo || line, url };
  } catch (error) {
    const code = error instanceof CadenceError ? error.code : 'ERR_INVALID_SOURCE';
    return {
      repository: line,
      url,
      refused: { code, message: errorMessage(error) },
    };
  }
}

function isUrlLike(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || /^[^/\s]+@[^/\s]+:/.test(target);
}
