/**
 * Operational error codes: the interface's codes (ERR_WEBHOOK_INVALID_SIGNATURE to ERR_CPU_THROTTLED,
 * kept whether or not anything raises them) plus ours (docs/http-api.md, The job). Each carries its
 * default message so that a job's `error` is readable without a lookup table elsewhere. What a
 * code is answered with is the edges' choice: the server's middleware/http-answers.ts (HTTP) and
 * the CLI's cli/exit-codes.ts (exit codes).
 */
export const OPERATIONAL_CODES = {
  ERR_WEBHOOK_INVALID_SIGNATURE: 'Webhook signature verification failed',
  ERR_WEBHOOK_TIMEOUT: 'Webhook processing exceeded timeout',
  ERR_CONNECTION_REFUSED: 'Cannot connect to host:port',
  ERR_TLS_CERTIFICATE_INVALID: 'TLS certificate verification failed',
  ERR_GIT_CLONE_FAILED: 'Failed to clone repository',
  ERR_GIT_CLONE_TIMEOUT: 'Cloning the repository exceeded the clone timeout',
  ERR_GIT_READ_FAILED: 'Reading the cloned repository with git failed',
  ERR_REPOSITORY_TOO_LARGE: 'Repository exceeds maximum size',
  ERR_NO_COMMITS_FOUND: 'Repository has no commits or branch not found',
  ERR_AI_API_KEY_INVALID: 'Invalid API key for AI provider',
  ERR_AI_RATE_LIMIT: 'API rate limit exceeded',
  ERR_AI_PROVIDER_UNAVAILABLE: 'AI provider service is unavailable',
  ERR_DATABASE_CONNECTION_FAILED: 'Cannot connect to database',
  ERR_DATABASE_QUERY_TIMEOUT: 'Database query timed out',
  ERR_OUT_OF_MEMORY: 'Out of memory, process killed',
  ERR_CPU_THROTTLED: 'CPU quota exceeded',
  ERR_DNS_LOOKUP_FAILED: 'The host name could not be resolved',
  ERR_FETCH_TIMEOUT: 'Fetching the page exceeded the timeout',
  ERR_PAGE_TOO_LARGE: 'The page exceeds the maximum page size',
  ERR_UNSUPPORTED_CONTENT_TYPE: 'The page is not HTML or plain text',
  ERR_TOO_MANY_REDIRECTS: 'The page redirected more than 5 times',
  ERR_HTTP_STATUS: 'The page answered with an error status',
  ERR_PRIVATE_ADDRESS: 'The target resolves to a private, loopback or link-local address',
  ERR_JOB_TIMEOUT: 'The job exceeded the job timeout',
  ERR_CANCELLED: 'The job was cancelled',
  ERR_SHUTTING_DOWN: 'The server is shutting down',
  ERR_WORKER_LOST: 'The worker running the job stopped; the job was retried once',
  ERR_INVALID_SOURCE: 'The source is not a valid repository URL, website URL or path',
  ERR_PATH_NOT_FOUND: 'The local path does not exist',
  ERR_NOT_A_REPOSITORY: 'The local folder is not a git repository',
  ERR_BRANCH_NOT_FOUND: 'The repository has no branch of that name',
  ERR_REPORTER_FAILED: 'A reporter failed; the job\u2019s result stands',
  ERR_FORGE_AUTH: 'The forge refused the credentials (401, 403 or 404)',
  ERR_FORGE_RATE_LIMIT: 'The forge\u2019s rate limit held past the job\u2019s time',
  ERR_FORGE_UNAVAILABLE: 'The forge answered with server errors past the job\u2019s time',
  // Refusals of a request to the job manager (never a job's error_code).
  ERR_QUEUE_FULL: 'Too many jobs are waiting; retry later',
  ERR_DELIVERY_IN_PROGRESS: 'The first delivery of this id did not finish creating its job; retry later',
  ERR_JOB_NOT_FOUND: 'No such job',
  ERR_JOB_FINAL: 'The job has already ended',
  ERR_SCAN_NOT_ALLOWED: 'scans.allowed_owners does not list this organization or group',
  ERR_INTERNAL: 'Internal error',
} as const;

export type OperationalCode = keyof typeof OPERATIONAL_CODES;

export function isOperationalCode(value: unknown): value is OperationalCode {
  return typeof value === 'string' && Object.hasOwn(OPERATIONAL_CODES, value);
}

/** Error codes of HTTP error bodies (docs/http-api.md, Conventions). */
export type HttpErrorCode =
  | 'invalid_request'
  | 'invalid_signature'
  | 'invalid_token'
  | 'unauthorized'
  | 'forbidden'
  | 'misdirected_request'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'request_timeout'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'overloaded'
  | 'unavailable'
  | 'internal_error';
