export { createEngine, type Engine, type EngineOptions } from './engine.js';
export type { AnalysisRequest, AnalyzeOptions, EmittedEvent, ResultCache } from './analysis-request.js';
export type { EngineConfig } from './engine-config.js';
export { silentEngineLogger, type EngineLogger } from './engine-logger.js';
export type { PreparedSource, PreparedRepository, PreparedWebsite } from './prepared-source.js';
export type { StrategyInfo } from './strategy-registry.js';
export { assessRepository, assessWebsite } from './assessment.js';
export { createHooks } from './hooks.js';
export { redactUrl } from './sources/redact-url.js';
