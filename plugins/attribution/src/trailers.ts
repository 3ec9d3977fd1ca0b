/** One `Key: value` line of a commit message body. */
export interface Trailer {
  readonly key: string;
  readonly value: string;
  /** The line as written, for quoting. */
  readonly line: string;
}

const TRAILER = /^([A-Za-z][A-Za-z0-9-]{0,40}):[ \t]*(\S.*)$/;

/**
 * The trailers of a message body. git's own rule is "the last paragraph"; assistants and forges
 * are less tidy (a footer after the trailers, squash merges listing each commit's trailers in
 * the middle), so every `Key: value` line counts. The rules only ever ask for specific keys, so
 * an ordinary line such as `Note: ...` is read and never matches.
 */
export function trailersOf(body: string): Trailer[] {
  const trailers: Trailer[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    const match = TRAILER.exec(line);
    if (match) trailers.push({ key: match[1] ?? '', value: (match[2] ?? '').trim(), line });
  }
  return trailers;
}
