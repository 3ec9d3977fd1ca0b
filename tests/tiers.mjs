// Which test files run beside the rest: the release check, the server tests whose servers keep
// jobs, deliveries, sessions, reports or schedules (what the job backend changes: `.ci/run` runs
// them under Node 22 with servers on Redis), the tests that bring a Redis of their own, and a smoke
// slice of the CLI (analyze, the CI commands, scans of the forges: what users run on Node 22 and 24,
// and enough to keep the two runs about as long). `pnpm test` (scripts/run-tests.mjs) and `.ci/run` both read this list, so a
// file is in exactly one of the two runs. tests/server/limits.test.ts stays in the other run (servers
// in memory): on the run's shared Redis, after some twenty other servers, its rate-limit test once
// found its first window already spent (under investigation).
export const BACKEND_TIER = [
  'tests/release/**/*.test.ts',
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
  'packages/server/test/redis-backends.test.ts',
  'tests/cli/analyze.test.ts',
  'tests/cli/ci.test.ts',
  'tests/cli/scan-forges.test.ts',
  'tests/plugins/plugin-settings.test.ts',
];

// `node tests/tiers.mjs`: the list, one per line (for `.ci/run`).
if (import.meta.url === `file://${process.argv[1]}`) console.log(BACKEND_TIER.join('\n'));
