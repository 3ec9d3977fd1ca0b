export { PLUGIN_API_VERSION } from './version.js';
export { severityFromScore, clampScore, type SourceKind, type Severity } from './source.js';
export {
  DEFAULT_THRESHOLDS,
  type CommitRecord,
  type CommitFileChange,
  type RepositoryStats,
  type Thresholds,
  type WrittenIdentity,
  writtenIdentity,
} from './commit.js';
export type { PageDocument, TextBlock, Heading, ListBlock, LinkRef, ImageRef } from './document.js';
export type { AnalysisEvent, AnalysisEventName, EventChannel } from './events.js';
export type { PluginLogger } from './logger.js';
export type { PluginConfigView } from './config-view.js';
export { parseDuration } from './duration.js';
export type {
  AnalysisContext,
  RepositoryContext,
  WebsiteContext,
  RepositorySourceInfo,
  RequestCommits,
  WebsiteSourceInfo,
} from './context.js';
export {
  defineStrategy,
  toOutcome,
  formatMessage,
  type Strategy,
  type RepositoryStrategy,
  type WebsiteStrategy,
  type StrategyMeta,
  type Finding,
  type StrategyOutcome,
  type StrategyReturn,
  type ContextOf,
  type Evidence,
  type StrategyDefinition,
  type StrategyOf,
} from './strategy.js';
export { ADDED_LINE_CHARS, ADDED_LINES_PER_COMMIT, type AddedLine, type AddedLinesReader } from './added-lines.js';
export type { OptionsOf, PluginOptions, DeepReadonly } from './options.js';
export type {
  Detection,
  StrategyResult,
  Suspicion,
  TimelineBucket,
  AiVerdict,
  AiReport,
  RepositoryAssessment,
  WebsiteAssessment,
  RepositoryResult,
  SquashJudgement,
  OversizedFiles,
  AssistantSetup,
  LinesAtHead,
  EraCheck,
  LinesEraCheck,
  LineRecordsSummary,
  Survival,
  SurvivalSide,
  WebsiteResult,
  AnalysisResult,
  AuthorBreakdown,
  MonthlyShare,
  AuthorMonths,
  AssessmentBands,
} from './result.js';
export {
  ASSESSMENT_LEVELS,
  assessmentLevel,
  assessShare,
  DEFAULT_ASSESSMENT_BANDS,
  SOURCE_TYPE,
  sourceKindOf,
  failsPolicy,
  verdictLine,
  type FailOn,
} from './assessment.js';
export { monthlyShares, type MonthTotals } from './monthly-share.js';
export { FULL_COMMIT_ID, isFullCommitId, isCommitIdPrefix } from './commit-id.js';
export type { Forge, ForgeTarget, JobFailure, JobInfo, JobStart, ReportOutcome } from './job.js';
export {
  REFINE_STAGE,
  type EngineHooks,
  type RequestPreparation,
  type StrategyRegistrar,
  type OptionsCheck,
  type RegisterStrategiesHook,
  type JobStartHook,
  type JobFailedHook,
  type PrepareRequestHook,
  type BeforeAnalysisHook,
  type StrategyResultHook,
  type DetectionHook,
  type RefineResultHook,
  type ReportHook,
} from './hooks.js';
export type { AnalysisRequest, RepositoryRequest, WebsiteRequest, SquashedRequest } from './analysis-request.js';
export { forgeGitHost, normalizeGitHost } from './forge.js';
export type {
  ForgeDefinition,
  ForgeIntake,
  IntakeSetup,
  ListedRepository,
  WebhookDelivery,
  WebhookOutcome,
  WebhookPush,
  WebhookSecret,
} from './forge.js';
export type { CiJob, CiOption, CiOutcome, CiRequest, CiRunner, CiSetupFile } from './ci.js';
export { definePlugin, type CadencePlugin, type PluginEnvironment, type PluginMeta } from './plugin.js';
export { CadenceError, errorMessage, type OperationalCode } from '@cadence-detect/errors';
export {
  exceedanceScore,
  isMeasurableCommit,
  isSquashOrForgeMerge,
  isRootImport,
  sizeEvidenceFactor,
  judgeEachCommit,
  logisticProbability,
  logisticScore,
  sigmoid,
  type LogisticModel,
  type LogisticOptions,
} from './scoring-helpers.js';
export { authorKeys, githubNoReplyLogin, type AuthorIdentity } from './author-identity.js';
export { settingsKeyOf, settingsKeyProblem, secretOptionPaths, type SettingsOwner } from './plugin-settings.js';
export { ERA_CHECK_BEFORE, ERA_CHECK_MIN_COMMITS } from './era-check.js';
export {
  parseAuthorshipLog,
  assistantOfTool,
  AUTHORSHIP_MAX_LINE,
  type AuthorshipLog,
  type AttestedRange,
} from './authorship-log.js';
