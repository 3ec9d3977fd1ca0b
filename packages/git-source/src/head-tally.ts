import { BLOB_CAPS, readBlobCapped } from './blob-reader.js';
import type { CommitLines, FileBlame, LineTree } from './head-lines.js';
import { markedLines, type LineRecords } from './line-records.js';

/** The head's lines added up: how the tree's files count, and each file's blame by commit (head-lines.ts reads them). */
/** Lines as numstat counts them: newlines, plus a last line without one. */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** The tree's files by how they count: text to blame, excluded lines, binary files, and `-diff` files whose text git's diff hides. */
export function sortTreeFiles(
  files: ReadonlyMap<string, number | null>,
  attributes: LineTree['attributes'],
  isExcluded: (path: string) => boolean,
): { counted: [string, number][]; excluded: number; binaryFiles: number; noDiffText: string[] } {
  let excluded = 0;
  let binaryFiles = 0;
  const counted: [string, number][] = [];
  const noDiffText: string[] = [];
  for (const [path, lines] of files) {
    if (lines === null) {
      // A `-diff` file may be text that the working tree's attributes hid from numstat: counted below.
      if (attributes(path).noDiff) noDiffText.push(path);
      else binaryFiles++;
    } else if (isExcluded(path)) excluded += lines;
    else if (lines > 0) counted.push([path, lines]);
  }
  return { counted, excluded, binaryFiles, noDiffText };
}

/** git's diff shows no lines of a `-diff` file whatever --text says: its lines are counted from the blob, as excluded ones. */
export async function countNoDiffText(
  dir: string,
  head: string,
  sorted: { readonly excluded: number; readonly binaryFiles: number; readonly noDiffText: readonly string[] },
  signal: AbortSignal | undefined,
): Promise<{ excluded: number; binaryFiles: number }> {
  let { excluded, binaryFiles } = sorted;
  for (const path of sorted.noDiffText) {
    const blob = await readBlobCapped(dir, `${head}:${path}`, BLOB_CAPS.noDiffText, signal);
    // git's own test for binary content: a NUL byte within the first 8000. Above the cap, counted
    // as binary: its lines are never read.
    if (blob.kind !== 'text' || blob.text.slice(0, 8000).includes('\0')) binaryFiles++;
    else excluded += lineCount(blob.text);
  }
  return { excluded, binaryFiles };
}

/** Adds one file's blame to the lines by commit (with the lines notes mark, when there are records); returns the lines added. */
export function tallyBlame(
  byCommit: Map<string, CommitLines>,
  blamed: FileBlame,
  folder: string,
  records: LineRecords | null,
): number {
  let total = 0;
  for (const group of blamed.groups) {
    const entry = byCommit.get(group.commit) ?? { lines: 0, folders: new Map<string, number>() };
    entry.lines += group.count;
    entry.folders.set(folder, (entry.folders.get(folder) ?? 0) + group.count);
    byCommit.set(group.commit, entry);
    total += group.count;
    const marked = records ? markedLines(records, group.commit, group.path, group.line, group.count) : null;
    if (marked) {
      entry.marked ??= { lines: 0, folders: new Map(), byAssistant: new Map() };
      entry.marked.lines += marked.lines;
      entry.marked.folders.set(folder, (entry.marked.folders.get(folder) ?? 0) + marked.lines);
      for (const [name, lines] of marked.byAssistant)
        entry.marked.byAssistant.set(name, (entry.marked.byAssistant.get(name) ?? 0) + lines);
    }
  }
  return total;
}
