// The added code's token vectors of a mirror's commits, read as the product reads them: the engine's
// one pass over the history's diffs hands each commit's added lines to a reader (the commit model's
// tokenizer), so the corpus's `code_tokens` sees exactly the lines and bounds the plugin will.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_EXCLUDE_FILES } from '@cadence-detect/config';
import { excludeMatcher, readWholeHistoryPass } from '@cadence-detect/git-source';
import { CODE_TOKENIZER_VERSION, codeTokenVector } from '@cadence-detect/plugin-commit-model';
import { pathsWithMissingObjects } from './build.mjs';

/** A vector kept compact: its slots part by part (`i`) and each part's size (`n`); token-features.mjs unpacks it. */
function packed(vector) {
  // Each part's values are 1 / sqrt(its size): a run of equal values is one part or several of the
  // same size, told apart by that size.
  const sizes = [];
  for (let k = 0; k < vector.value.length; ) {
    const size = Math.round(1 / vector.value[k] ** 2);
    sizes.push(size);
    k += size;
  }
  return { i: Array.from(vector.index), n: sizes };
}

/**
 * The packed code vectors of the commits `wanted` (full hashes), from one pass over the history at
 * the entry's revision; kept under CORPUS_HISTORY_CACHE like the histories.
 */
export async function codeVectorsOf(entry, mirror, wanted, log) {
  const rev = entry.rev ?? 'HEAD';
  const sha = execFileSync('git', ['rev-parse', rev], { cwd: mirror, encoding: 'utf8' }).trim();
  const cacheDir = process.env.CORPUS_HISTORY_CACHE;
  const cacheFile = cacheDir
    ? path.join(cacheDir, `${entry.repo.replace('/', '+')}-${sha}-code${CODE_TOKENIZER_VERSION}.json`)
    : null;
  if (cacheFile && existsSync(cacheFile)) {
    const cached = new Map(Object.entries(JSON.parse(readFileSync(cacheFile, 'utf8'))));
    if ([...wanted].every((h) => cached.has(h))) return cached;
  }
  const vectors = [];
  const reader = {
    key: 'corpus-code-vectors',
    read(lines) {
      vectors.push(codeTokenVector(lines));
      return vectors.length - 1;
    },
  };
  const omitPaths = pathsWithMissingObjects(mirror, sha);
  const started = Date.now();
  const pass = await readWholeHistoryPass(mirror, sha, {
    isExcludedByConfig: excludeMatcher(DEFAULT_EXCLUDE_FILES),
    readers: [reader],
    ...(omitPaths.length > 0 ? { omitPaths } : {}),
  });
  const ids = pass.readings.get(reader.key) ?? new Map();
  const found = new Map();
  for (const hash of wanted) {
    const id = ids.get(hash);
    if (id !== undefined) found.set(hash, packed(vectors[id]));
  }
  log(`  ${entry.repo}: added code of ${found.size} of ${wanted.size} commits read in one pass (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (cacheFile) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cacheFile, JSON.stringify(Object.fromEntries(found)));
  }
  return found;
}
