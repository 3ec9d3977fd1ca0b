import { itemAt } from '@cadence-detect/errors';
import { assistantSlot, UNKNOWN, writerIndex, type Ledger } from './history-ledger.js';
import type { CommitLines } from './head-lines.js';
import { UNNAMED_ASSISTANT, type LineRecords } from './line-records.js';

/**
 * Tallies one file's lines at the head by their writers, from the ledger (history-ledger.ts)
 * instead of a blame: into `byCommit`, by `folder`, with the lines a writer's record names as an
 * assistant's. False, and nothing tallied, when the ledger cannot answer for the file (not
 * followed, a line of unknown writer, or another line count than the tree's): it is blamed then.
 */
export function tallyFromLedger(
  ledger: Ledger,
  path: string,
  lineCount: number,
  folder: string,
  byCommit: Map<string, CommitLines>,
  records: LineRecords | null,
): boolean {
  const values = ledger.files.get(path);
  if (!values || values.length !== lineCount || values.includes(UNKNOWN)) return false;
  for (let start = 0; start < values.length;) {
    // A run of lines with one writer and one mark is tallied at once.
    const value = itemAt(values, start);
    let end = start + 1;
    while (end < values.length && values[end] === value) end++;
    const count = end - start;
    start = end;
    const commit = itemAt(ledger.commits, writerIndex(value));
    const entry = byCommit.get(commit) ?? { lines: 0, folders: new Map<string, number>() };
    entry.lines += count;
    entry.folders.set(folder, (entry.folders.get(folder) ?? 0) + count);
    byCommit.set(commit, entry);
    if (!records?.byCommit.has(commit)) continue;
    // As with a blame: a commit with a record has `marked`, even when it names none of these lines.
    entry.marked ??= { lines: 0, folders: new Map(), byAssistant: new Map() };
    const slot = assistantSlot(value);
    if (slot === 0) continue;
    const name = ledger.assistants[slot - 1] ?? UNNAMED_ASSISTANT;
    entry.marked.lines += count;
    entry.marked.folders.set(folder, (entry.marked.folders.get(folder) ?? 0) + count);
    entry.marked.byAssistant.set(name, (entry.marked.byAssistant.get(name) ?? 0) + count);
  }
  return true;
}
