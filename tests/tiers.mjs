// Which test files run beside the rest, so that the suite takes three runs side by side (it mostly
// waits on the git, CLI, npm and server processes it starts, so a two-core machine has room for a
// third). `pnpm test` (scripts/run-tests.mjs) and `.ci/run` both read these lists, so a file is in
// exactly one run.
//
// - BACKEND_TIER: the server tests whose servers keep jobs, deliveries, sessions, reports or
//   schedules (what the job backend changes: `.ci/run` runs them under Node 22 with servers on
//   Redis), the tests that bring a Redis of their own, and a smoke slice of the CLI (analyze, the CI
//   commands, SARIF, scans of organizations: what users run on Node 22 and 24).
// - WAITING_TIER: the release check (a local Verdaccio, publishing, npm installs: its packages are
//   the same whatever Node runs it) and the tests whose time is mostly timers: retry back-offs of
//   forge calls, header and body timeouts of trickling clients, job timeouts and drain graces;
//   and the CLI's startup refusals (servers that start and exit); the servers that wait out
//   connection attempts in a network namespace (found-configuration); and, to even out the three
//   runs' lengths, the CLI's scans of forges and the organization page's browser test (Chromium's
//   and the scans' processes). Browser files come last (they wait for Chromium's install in .ci/run).
//   `.ci/run` runs them under Node 22 with servers in memory.
// - Everything else runs under the machine's Node (20 in CI), servers in memory.
export const BACKEND_TIER = [
  'tests/server/api.test.ts',
  'tests/server/webhooks.test.ts',
  'tests/server/sessions.test.ts',
  'tests/server/forge-github.test.ts',
  'tests/server/forge-gitlab.test.ts',
  'tests/server/forge-gitea.test.ts',
  'tests/server/forge-bitbucket.test.ts',
  'tests/server/website.test.ts',
  'tests/server/ai.test.ts',
  'tests/server/organization-scan.test.ts',
  'tests/server/scan-schedule.test.ts',
  'tests/server/scale-out.test.ts',
  'tests/server/limits.test.ts',
  'packages/server/test/redis-backends.test.ts',
  'tests/cli/analyze.test.ts',
  'tests/cli/ci.test.ts',
  'tests/cli/scan.test.ts',
  'tests/cli/sarif.test.ts',
  'tests/plugins/plugin-settings.test.ts',
  // A 560 MB blob through the CLI, the server and a worker of its own Redis: time the main run lacks.
  'tests/security/hostile-blobs.test.ts',
  // Mirrors cloned and fetched over git daemon: here to even out the runs' lengths (the main run
  // ended last, 55 s after this one).
  'packages/git-source/test/mirrors.test.ts',
];

export const WAITING_TIER = [
  'tests/release/**/*.test.ts',
  'tests/server/forge-failures.test.ts',
  'tests/server/intake-abuse.test.ts',
  'tests/server/analysis-threads.test.ts',
  'tests/cli/startup-refusals.test.ts',
  // Its servers wait out connection attempts in a network namespace (26 s, 7 s of CPU).
  'tests/security/found-configuration.test.ts',
  // Node 22 CLI smoke like the backend tier's, here to even out the runs' lengths.
  'tests/cli/scan-forges.test.ts',
  'tests/browser/organization.test.ts',
];

// `node tests/tiers.mjs backend|waiting`: that list, one per line (for `.ci/run`).
if (import.meta.url === `file://${process.argv[1]}`) {
  const tier = { backend: BACKEND_TIER, waiting: WAITING_TIER }[process.argv[2] ?? ''];
  if (!tier) {
    console.error('usage: node tests/tiers.mjs backend|waiting');
    process.exit(2);
  }
  console.log(tier.join('\n'));
}
