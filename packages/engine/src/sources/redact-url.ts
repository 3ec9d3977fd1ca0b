import { redactCredentials } from '@cadence/errors';

/** A URL fit for messages, job views and results: its user part removed (see @cadence/errors). */
export const redactUrl: (input: string) => string = redactCredentials;
