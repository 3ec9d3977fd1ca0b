import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { errorCode, errorMessage } from '@cadence-detect/errors';
import { CliError } from '../exit-codes.js';

const refusal = (link: string): CliError =>
  new CliError(
    'usage',
    `${link} is a symbolic link: a CI report is never written through a link (the change may have committed it to overwrite another file); remove it or choose another path`,
  );

/**
 * Writes a CI report (SARIF, Code Quality) at `target`, resolved against the workspace, never
 * through a symbolic link: the checkout is the change's, and a link it committed in the report's
 * place, or in place of a folder on the way to it, would have the report overwrite whatever it
 * names. The folders inside the workspace are checked one by one; the file is opened with
 * O_NOFOLLOW. A link is refused (exit 2) with its path. Returns the file's path.
 */
export async function writeReportFile(workspace: string, target: string, text: string): Promise<string> {
  const file = path.resolve(workspace, target);
  const relative = path.relative(workspace, file);
  const inside =
    relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  if (inside) {
    let folder = workspace;
    for (const segment of relative.split(path.sep).slice(0, -1)) {
      folder = path.join(folder, segment);
      const stats = await lstat(folder).catch(() => null);
      if (stats?.isSymbolicLink()) throw refusal(folder);
    }
  }
  let handle;
  try {
    handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if (errorCode(error) === 'ELOOP') throw refusal(file);
    throw new CliError('failed', `could not write ${file}: ${errorCode(error) ?? errorMessage(error)}`);
  }
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  return file;
}
