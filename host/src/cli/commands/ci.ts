import type { Command } from 'commander';
import type { CliIo } from '../io.js';

/** `cadence ci github|gitlab|bitbucket`: the analysis a forge's CI job runs on a change (docs/ci.md). */
export function register(program: Command, io: CliIo): void {
  const ci = program
    .command('ci')
    .description('analyze a pull or merge request in CI: outputs, summary, SARIF or Code Quality, and a gate');
  ci.command('github')
    .description('in a GitHub Actions job (what the Cadence action runs)')
    .option('--path <dir>', 'the repository, relative to GITHUB_WORKSPACE (INPUT_PATH)')
    .option(
      '--fail-on <level>',
      'exit 3 when the verdict reaches it: never, suspicious or likely_ai_generated (INPUT_FAIL_ON)',
    )
    .option(
      '--config <file>',
      'a configuration file outside the checkout, or a path read at the base commit (INPUT_CONFIG)',
    )
    .option('--sarif <file>', 'write SARIF for code scanning (INPUT_SARIF)')
    .option('--base <ref>', 'analyze the commits after this one (default: the pull request\u2019s base) (INPUT_BASE)')
    .action(async (options) => (await import('../ci/github.js')).runGithubCi(options, io));
  ci.command('gitlab')
    .description('in a GitLab CI job (what templates/cadence.gitlab-ci.yml runs)')
    .option('--path <dir>', 'the repository, relative to CI_PROJECT_DIR')
    .option(
      '--fail-on <level>',
      'exit 3 when the verdict reaches it: never, suspicious or likely_ai_generated (CADENCE_FAIL_ON)',
    )
    .option('--config <file>', 'a configuration file outside the checkout, or a path read at the base commit')
    .option('--sarif <file>', 'also write SARIF')
    .option('--base <ref>', 'analyze the commits after this one (default: CI_MERGE_REQUEST_DIFF_BASE_SHA)')
    .option('-o, --output <file>', 'the Code Quality report', 'gl-code-quality.json')
    .action(async (options) => (await import('../ci/gitlab.js')).runGitlabCi(options, io));
  ci.command('bitbucket')
    .description('in a Bitbucket Pipelines step (what templates/bitbucket-pipelines.yml runs)')
    .option('--path <dir>', 'the repository, relative to BITBUCKET_CLONE_DIR')
    .option(
      '--fail-on <level>',
      'exit 3 when the verdict reaches it: never, suspicious or likely_ai_generated (CADENCE_FAIL_ON)',
    )
    .option('--config <file>', 'a configuration file outside the checkout, or a path read at the base commit')
    .option('--sarif <file>', 'also write SARIF')
    .option('--base <ref>', 'analyze the commits after this one (default: BITBUCKET_PR_DESTINATION_COMMIT)')
    .option('-o, --output <file>', 'the Code Insights report and annotations, as JSON', 'cadence-insights.json')
    .option('--no-insights', 'do not send the Code Insights report to Bitbucket (it is still written)')
    .action(async (options) => (await import('../ci/bitbucket.js')).runBitbucketCi(options, io));
}
