// Helpers for forge plugins and reporters: forge HTTP calls with retries, commit statuses and report
// comments, webhook signatures and payload fields, squash lookups, and what CI runners share (the
// Actions run, inputs, the job summary, Code Quality issues). Not the plugin contract (that
// is @cadence-detect/plugin-sdk): a forge plugin depends on this package, a strategy plugin needs none of it.
export { escapeMarkdown, markdownDetails, REPORT_COMMENT_MARKER, reportCommentBody } from './report-helpers.js';
export { describeRequestFailure } from './request-failure.js';
export { retrying, retryAfterMs, type RetryOptions } from './retry.js';
/** A named field of whatever a client library threw (its `status`, its `headers`), or undefined. */
export { fieldOf } from '@cadence-detect/errors';
export {
  ForgeHttpError,
  forgeRequest,
  classifyForgeFailure,
  forgeReportCall,
  forgeReportOutcome,
  PendingStatuses,
  type ForgeApi,
  type ForgeFailure,
  type ForgeCallOutcome,
} from './forge-call.js';
export {
  tapForgeReporter,
  lazyForgeReporter,
  isJobOf,
  forgeTargetOf,
  type ForgeJob,
  type ForgeReporter,
} from './forge-reporter.js';
export { statusReporter, type StatusReporterSpec } from './status-reporter.js';
export { tapSquashLookup, SQUASH_LOOKUP_MS, type SquashLookup, type SquashFound } from './squash-lookup.js';
export {
  constantTimeEqual,
  hubSignatureKey,
  verifyHubSignature,
  requireHubSignature,
  pullRequestRefPush,
  type PushOrIgnored,
  refuseDelivery,
  invalidPayload,
  payloadField,
  payloadText,
  payloadCommit,
  positiveInteger,
  requestNumber,
  pushRange,
  isSingleCommitPush,
  pushOutcome,
  type PushFields,
  type PushRange,
} from './webhook-helpers.js';
export { actionsJobStart, runActionsCi, type ActionsCi } from './actions-ci.js';
export { given, withValue } from './ci-inputs.js';
export { addedLinesSentence, ciSummary } from './job-summary.js';
export { codeQualityReport, type CodeQualityIssue } from './code-quality.js';
