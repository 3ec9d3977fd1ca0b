export { OPERATIONAL_CODES, isOperationalCode, type OperationalCode, type HttpErrorCode } from './codes.js';
export { CadenceError, toCadenceError, type CadenceErrorOptions } from './cadence-error.js';
export { HttpError } from './http-error.js';
export { redactCredentials } from './redact-credentials.js';
export { redactSecrets } from './redact-secrets.js';
export { abortError } from './abort-error.js';
export { closestName } from './closest-name.js';
export { errorMessage } from './error-message.js';
export { jobErrorCode, jobCodeMappings, type JobErrorCode } from './job-codes.js';
