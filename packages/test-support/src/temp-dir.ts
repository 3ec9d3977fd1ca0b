import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  readonly path: string;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix = 'cadence-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // A server still running may write into it (a mirror's bookkeeping after a job): rm retries then.
  return { path, remove: () => rm(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }) };
}
