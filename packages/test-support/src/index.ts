export { runGit } from './run-git.js';
export { makeTempDir, type TempDir } from './temp-dir.js';
export {
  createRepository,
  humanHistory,
  burstHistory,
  DEFAULT_AUTHOR,
  type FixtureAuthor,
  type FixtureCommit,
  type FixtureRepository,
} from './git-repository.js';
export { startGitDaemon, exportRepository, freePort, waitForPort, type GitDaemon } from './git-daemon.js';
export { startHttpServer, type TestHttpServer } from './http-server.js';
export { startGitHttpServer, type GitHttpServer } from './git-http.js';
export { runCadence, testCacheHome, CADENCE_BIN, type CliRun } from './cli-process.js';
export { importRecorder, type ImportRecorder } from './import-recorder.js';
export {
  startCadenceServer,
  startCadenceWorker,
  waitForJob,
  waitForReports,
  startStalledServer,
  SERVER_CONFIG_FILE,
  type ServerProcess,
  type ServerOptions,
} from './server-process.js';
export {
  loopbackNamespaceUnavailable,
  runInLoopbackNamespace,
  assertLoopbackOnly,
  type NamespaceRun,
  type NamespaceOptions,
} from './network-namespace.js';
export { startRedisServer, type RedisServer } from './redis-server.js';
export {
  startFakeGithub,
  startFakeGitlab,
  startFakeGitea,
  startFakeBitbucket,
  type FakeGitea,
  type FakeBitbucket,
  type FakeForge,
  type ForgeRequest,
  type ScriptedAnswer,
} from './fake-github.js';
export { startConnectionRecorder, type ConnectionRecorder, type RecorderBehaviour } from './connection-recorder.js';
export { jsonPost } from './json-request.js';
export {
  runActionStep,
  runGitlabJob,
  runBitbucketStep,
  runWorkflowStep,
  type StepRun,
  type ActionStepOptions,
  type GitlabJobOptions,
  type BitbucketStepOptions,
  type WorkflowStepOptions,
} from './ci-step.js';
export { startNpmRegistry, type NpmRegistry, type RegistryPackage } from './npm-registry.js';
export { eventually } from './eventually.js';
