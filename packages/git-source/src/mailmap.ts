import { BLOB_CAPS, readBlobCapped } from './blob-reader.js';

/** Where `.mailmap` is read from for one history read (set by readHistory). */
export interface MailmapChoice {
  /** `mailmap.blob`: `<commit>:.mailmap`, or '' for none. */
  readonly blob: string;
}

/**
 * The `.mailmap` a history is read with: the one at `commit` (a range's base, so a change cannot
 * rename its own authors; the analysed head otherwise), never a working tree's and never
 * `mailmap.file`. One above BLOB_CAPS.mailmap is not applied (git would parse it for every read).
 */
export async function chooseMailmap(
  dir: string,
  commit: string,
  signal?: AbortSignal,
): Promise<{ mailmap: MailmapChoice; skippedBytes?: number }> {
  const spec = `${commit}:.mailmap`;
  const blob = await readBlobCapped(dir, spec, BLOB_CAPS.mailmap, signal);
  if (blob.kind === 'too-large') return { mailmap: { blob: '' }, skippedBytes: blob.bytes };
  return { mailmap: { blob: blob.kind === 'text' ? spec : '' } };
}
