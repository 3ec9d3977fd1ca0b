import { omitted } from './history-log.js';
import {
  LINE_DIFF_ARGS,
  streamCommitDiffs,
  UNKNOWN_ORIGIN as UNKNOWN,
  type DiffReadOptions,
  type FileDiff,
} from './line-replay.js';

/**
 * Each merge's diff against its second parent (`git diff-tree --stdin` fed `<merge> <second
 * parent>` lines): the lines the merge leaves as the side branch had them. A merge whose tree is
 * the side's prints nothing and is absent.
 */
export async function mergeSideDiffs(
  dir: string,
  parents: ReadonlyMap<string, readonly string[]>,
  { signal, omitPaths, bounds }: { readonly omitPaths?: readonly string[] | undefined } & DiffReadOptions,
): Promise<Map<string, Map<string, FileDiff>>> {
  const pairs: string[] = [];
  for (const [hash, of] of parents) if (of.length > 1) pairs.push(`${hash} ${of[1]}`);
  const found = new Map<string, Map<string, FileDiff>>();
  if (pairs.length === 0) return found;
  let current: Map<string, FileDiff> | null = null;
  await streamCommitDiffs(
    dir,
    ['diff-tree', '--stdin', '-r', ...LINE_DIFF_ARGS, ...(omitPaths?.length ? ['--', ...omitted(omitPaths)] : [])],
    {
      commit: (hash) => {
        current = new Map();
        found.set(hash, current);
      },
      file: (diff) => {
        const to = diff.newPath ?? diff.renameTo;
        if (to) current?.set(to, diff);
      },
    },
    { signal, input: `${pairs.join('\n')}\n`, bounds },
  );
  return found;
}

/** `old` (null: a new file) with `diff` applied: lines it leaves keep their value, lines it adds are UNKNOWN. */
export function applyKeeping(old: readonly number[] | null, diff: FileDiff): number[] {
  const base = old ?? [];
  const out: number[] = [];
  let position = 0;
  for (const [a, b, , d] of diff.hunks) {
    const start = b === 0 ? a : a - 1;
    for (; position < start && position < base.length; position++) out.push(base[position]!);
    position += b;
    for (let i = 0; i < d; i++) out.push(UNKNOWN);
  }
  for (; position < base.length; position++) out.push(base[position]!);
  return out;
}
