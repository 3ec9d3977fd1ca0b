// How the build's bundling steps write their output: only when it changed, and then by rename. Tests
// run side by side, and one (the release check) builds while others load or serve these files.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeIfChanged(file, text) {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === text) return;
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, text);
  await rename(partial, file);
}
