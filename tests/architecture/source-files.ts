import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every TypeScript or JavaScript source under `dir` (declarations aside); none when it does not exist. */
export function sourceFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(?:ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  };
  if (statSync(dir, { throwIfNoEntry: false })) walk(dir);
  return out;
}
