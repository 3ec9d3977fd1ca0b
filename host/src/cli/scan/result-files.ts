import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CadenceConfig } from '@cadence-detect/config';
import type { ResultCache } from '@cadence-detect/engine';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';

/** Results kept between scans; the least recently written go first past this many. */
const MAX_RESULTS = 5000;
const KEY = /^[0-9a-f]{64}$/;

/**
 * The scan's results between runs, one JSON file per result-cache key under
 * `<cache.repositories_dir>/results` (beside the mirrors). The key is the engine's: the
 * repository, its head, the request and the configuration's fingerprint, so a result is reused only
 * for an unchanged head under the same settings. An unreadable file is a miss.
 */
export function resultFiles(config: CadenceConfig): ResultCache {
  const dir = path.join(config.cache.repositories_dir ?? path.join(tmpdir(), 'cadence-mirrors'), 'results');
  let pruned = false;
  return {
    async get(key) {
      if (!KEY.test(key)) return undefined;
      try {
        return JSON.parse(await readFile(path.join(dir, `${key}.json`), 'utf8')) as AnalysisResult;
      } catch {
        return undefined;
      }
    },
    async set(key, result) {
      if (!KEY.test(key)) return;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Written whole, then renamed: a scan stopped half-way never leaves half a result.
      const temporary = path.join(dir, `.${key}.${process.pid}.tmp`);
      await writeFile(temporary, JSON.stringify(result), { mode: 0o600 });
      await rename(temporary, path.join(dir, `${key}.json`));
      if (!pruned) {
        pruned = true;
        // Pruning old results is housekeeping: the scan's own result is written.
        await prune(dir).catch(() => undefined);
      }
    },
  };
}

async function prune(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  if (names.length <= MAX_RESULTS) return;
  const dated = await Promise.all(
    names.map(async (name) => ({ name, at: (await stat(path.join(dir, name))).mtimeMs })),
  );
  dated.sort((a, b) => a.at - b.at);
  for (const { name } of dated.slice(0, dated.length - MAX_RESULTS))
    // A file another run removed first is gone all the same.
    await unlink(path.join(dir, name)).catch(() => undefined);
}
