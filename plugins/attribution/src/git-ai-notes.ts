import { parseAuthorshipLog, type AuthorshipLog } from '@cadence-detect/plugin-sdk';

/**
 * What a Git AI Standard v3 authorship log (a git note under refs/notes/ai) says of its commit: the
 * SDK's one parser, summed up. The host hands the whole log parsed (`authorshipLogs`); the text in
 * `aiNotes` is cut at 16 KiB and parsed only when a host gives no logs.
 */
export interface NoteAttribution {
  /** `agent_id.tool` of each AI session with attested lines, e.g. `claude`, `cursor`. */
  readonly tools: readonly string[];
  readonly models: readonly string[];
  /** Lines attested to AI sessions, and to known humans. */
  readonly aiLines: number;
  readonly humanLines: number;
  readonly files: number;
}

/** Null when the log attests no line to an AI session. */
export function noteAttributionOf(log: AuthorshipLog): NoteAttribution | null {
  if (log.aiLines === 0) return null;
  return {
    tools: log.tools.map((tool) => tool.slice(0, 40)),
    models: [...log.models],
    aiLines: log.aiLines,
    humanLines: log.humanLines,
    files: log.files,
  };
}

/** Null when the text is not an authorship log, or attests no line to an AI session. */
export function readAuthorshipLog(text: string): NoteAttribution | null {
  const log = parseAuthorshipLog(text);
  return typeof log === 'string' ? null : noteAttributionOf(log);
}
