/**
 * Text from a repository or a page, made safe to show: commit subjects, author names, paths, page
 * text and URLs are chosen by whoever wrote them, and a terminal or a browser acts on some
 * characters instead of showing them (an escape sequence repaints a terminal, U+009D starts an
 * operating-system command in some terminals, U+0085 breaks a line, U+202E shows the rest of a
 * line reversed, so a report could say something its data does not).
 */

/** C0 controls but tab and line feed, DEL and the C1 controls: shown as one space a run. */
// eslint-disable-next-line no-control-regex -- the control characters are what display text replaces
const CONTROLS_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]+/g;
/** Every C0 and C1 control, tab and line feed included: for text that must stay on one line. */
// eslint-disable-next-line no-control-regex -- the control characters are what display text replaces
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
/** Bidirectional marks, embeddings, overrides and isolates: invisible, so removed. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Keeps line feeds and tabs (an HTML page shows them as spaces); every other control is a space. */
export function displayText(value: unknown): string {
  return String(value).replace(BIDI, '').replace(CONTROLS_KEEPING_LINES, ' ');
}

/** One line of terminal text: every control, line breaks included, is a space; ends trimmed. */
export function displayLine(value: unknown): string {
  return String(value).replace(BIDI, '').replace(CONTROLS, ' ').trim();
}
