export { makeCommits, statsOf, toUnixSeconds, type CommitSpec } from './commits.js';
export { runPlugin, type HandMadeCommits, type PluginRun, type RunOptions, type TestSource } from './run-plugin.js';
export { DEFAULT_THRESHOLDS, pluginConfigView, engineConfig, type TestConfig } from './defaults.js';
export {
  testStrategy,
  type ValidCase,
  type InvalidCase,
  type ExpectedDetection,
  type TestFunctions,
} from './strategy-tester.js';
