/** A squash merge's subject as GitHub writes it: the pull request's title and `(#123)`. */
const SQUASH_SUBJECT = /\(#\d+\)\s*$/;
/** Where GitHub starts each squashed commit's message in the squash's body: `* ` at the start of a line. */
const ENTRY = /^\* \S/;

/**
 * A squash merge's body as its authors wrote it. GitHub writes the body of a squash merge of several
 * commits as the list of their messages, each opened with `* ` and set apart by a blank line
 * (`* Add the parser\n\n* Handle errors`): those markers are the forge's, not bullets anybody
 * wrote, and read as a bulleted, labelled message they made human squash merges look assistant-made.
 * Such a body comes back without the markers (the messages themselves, and any bullets in them,
 * stay); any other body comes back as it is.
 */
export function authoredBody(subject: string, body: string): string {
  if (!SQUASH_SUBJECT.test(subject) || !ENTRY.test(body)) return body;
  const lines = body.split('\n');
  const entries = lines.filter((line, i) => ENTRY.test(line) && (i === 0 || (lines[i - 1] ?? '').trim() === ''));
  // One entry is a squash of one commit: GitHub keeps that message as written, so a `* ` is the author's.
  if (entries.length < 2) return body;
  // Every `* ` line must open an entry (after a blank line): a list written by hand runs line after line.
  const listed = lines.filter((line) => ENTRY.test(line)).length;
  if (listed !== entries.length) return body;
  return lines
    .map((line, i) => (ENTRY.test(line) && (i === 0 || (lines[i - 1] ?? '').trim() === '') ? line.slice(2) : line))
    .join('\n');
}
