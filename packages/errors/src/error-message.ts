import { fieldOf } from './is-record.js';

/** What an error says, whatever was thrown: an Error's message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `code` a thrown value carries (Node's `ENOENT`, `ELOOP`, `EADDRINUSE`; a CadenceError's
 * operational code), or undefined when it carries no string code.
 */
export function errorCode(error: unknown): string | undefined {
  const code = fieldOf(error, 'code');
  return typeof code === 'string' ? code : undefined;
}
