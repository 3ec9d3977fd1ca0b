import { redactCredentials } from '@cadence-detect/errors';

/** A URL fit for messages, job views and results: its user part removed (see @cadence-detect/errors). */
export const redactUrl: (input: string) => string = redactCredentials;
