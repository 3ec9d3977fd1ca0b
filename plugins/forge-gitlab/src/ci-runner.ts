import type { CiJob } from '@cadence-detect/plugin-sdk';
import { addedLinesSentence, codeQualityReport, given, withValue } from '@cadence-detect/forge-kit';

/**
 * `cadence ci gitlab`: what the GitLab template runs. Reads CI_* variables: on a merge request
 * pipeline the base is CI_MERGE_REQUEST_DIFF_BASE_SHA, on a push CI_COMMIT_BEFORE_SHA; writes a
 * Code Quality report (`-o`, gl-code-quality.json by default) and exits 3 when the verdict reaches
 * fail-on. GitLab's GIT_DEPTH (20 by default) sets how it fetched, not what Cadence reads: it is
 * not taken as git.depth here, and a shallow checkout is refused with the variable to set.
 */
export async function runGitlabCi(job: CiJob): Promise<void> {
  const { env, options } = job;
  const workspace = given(env.CI_PROJECT_DIR) ?? job.cwd;
  // Outside a GitLab job nothing names the range, and the report would land in whatever folder this is.
  if (env.GITLAB_CI !== 'true') {
    if (!given(options.base)) {
      throw job.usage(
        "cadence ci gitlab runs in a GitLab CI job, and GITLAB_CI is not set: outside one, give the range's base with --base <commit> (and -o for the report's file), or analyse with cadence analyze",
      );
    }
    job.stderr.write('cadence: not in a GitLab CI job (GITLAB_CI is not set): analysing from --base to HEAD\n');
  }
  const requestPipeline = env.CI_PIPELINE_SOURCE === 'merge_request_event';
  const base = given(options.base, requestPipeline ? env.CI_MERGE_REQUEST_DIFF_BASE_SHA : env.CI_COMMIT_BEFORE_SHA);
  const outcome = await job.analyze({
    workspace,
    path: given(options.path) ?? '.',
    base: base && !/^0+$/.test(base) ? base : null,
    head: given(env.CI_COMMIT_SHA) ?? null,
    ...withValue('failOn', given(options.failOn, env.CADENCE_FAIL_ON)),
    ...withValue('config', given(options.config)),
    ...withValue('sarif', given(options.sarif)),
    deepen: 'Fetch the whole history: set the job variable `GIT_DEPTH: 0` (GitLab fetches 20 commits by default).',
    ignoreVariables: ['GIT_DEPTH'],
  });
  const { issues, withoutLocation } = codeQualityReport(outcome.result, outcome.checkout.dir, outcome.gateReached);
  const file = await job.writeReport(
    workspace,
    given(options.output) ?? 'gl-code-quality.json',
    `${JSON.stringify(issues, null, 2)}\n`,
  );
  job.stderr.write(
    `Code Quality report written to ${file} (${issues.length} issues${withoutLocation ? `; ${withoutLocation} flagged commits whose files are all gone left out` : ''})\n`,
  );
  for (const line of addedLinesSentence(outcome.result)) job.stderr.write(`cadence: ${line}\n`);
  job.gate(outcome);
}
