import { errorMessage, isFullCommitId, type CiJob } from '@cadence-detect/plugin-sdk';
import { addedLinesSentence, given, withValue } from '@cadence-detect/forge-kit';
import { codeInsights } from './code-insights.js';
import { PIPELINES_PROXY, uploadInsights } from './insights-upload.js';

const WORKSPACE_REPOSITORY = /^[A-Za-z0-9_.-]{1,128}\/[A-Za-z0-9_.-]{1,128}$/;

/**
 * `cadence ci bitbucket`: what the Pipelines step (templates/bitbucket-pipelines.yml) runs. Reads
 * BITBUCKET_* variables: in a pull-request pipeline the range runs from the destination's commit
 * (BITBUCKET_PR_DESTINATION_COMMIT, which may be abbreviated: resolved in the checkout) to the
 * source's (BITBUCKET_COMMIT). Writes the Code Insights report and annotations as JSON (`-o`), sends
 * them to Bitbucket through the Pipelines proxy (failing to send is said, never fatal), and exits 3
 * when the verdict reaches fail-on.
 */
export async function runBitbucketCi(job: CiJob): Promise<void> {
  const { env, options } = job;
  const workspace = given(env.BITBUCKET_CLONE_DIR) ?? job.cwd;
  const inPipelines = given(env.BITBUCKET_BUILD_NUMBER) !== undefined;
  const base = given(options.base, env.BITBUCKET_PR_DESTINATION_COMMIT);
  if (!base) {
    throw job.usage(
      inPipelines
        ? 'cadence ci bitbucket analyses a pull request, and BITBUCKET_PR_DESTINATION_COMMIT is not set: run the step under pull-requests: in bitbucket-pipelines.yml, or give the range\u2019s base with --base <commit>'
        : "cadence ci bitbucket runs in a Bitbucket Pipelines step, and BITBUCKET_BUILD_NUMBER is not set: outside one, give the range's base with --base <commit> (and -o for the report's file), or analyse with cadence analyze",
    );
  }
  if (!inPipelines)
    job.stderr.write(
      'cadence: not in a Bitbucket Pipelines step (BITBUCKET_BUILD_NUMBER is not set): analysing from --base to HEAD\n',
    );
  const outcome = await job.analyze({
    workspace,
    path: given(options.path) ?? '.',
    base,
    head: given(env.BITBUCKET_COMMIT) ?? null,
    ...withValue('failOn', given(options.failOn, env.CADENCE_FAIL_ON)),
    ...withValue('config', given(options.config)),
    ...withValue('sarif', given(options.sarif)),
    deepen:
      'Fetch the whole history: set `clone: depth: full` in bitbucket-pipelines.yml (Pipelines clones 50 commits by default).',
  });
  const insights = codeInsights(outcome.result, outcome.checkout.dir, outcome.gateReached);
  const file = await job.writeReport(
    workspace,
    given(options.output) ?? 'cadence-insights.json',
    `${JSON.stringify({ report: insights.report, annotations: insights.annotations }, null, 2)}\n`,
  );
  job.stderr.write(
    `Code Insights report written to ${file} (${insights.annotations.length} annotations${insights.withoutLocation ? `; ${insights.withoutLocation} flagged commits whose files are all gone left out` : ''})\n`,
  );
  for (const line of addedLinesSentence(outcome.result)) job.stderr.write(`cadence: ${line}\n`);
  if (inPipelines && options.insights !== false) await sendInsights(env, outcome.checkout.head, insights, job);
  job.gate(outcome);
}

/** Sends the report to the commit; a refusal or an unreachable proxy is one line on stderr, not a failed step. */
async function sendInsights(
  env: CiJob['env'],
  head: string,
  insights: ReturnType<typeof codeInsights>,
  io: Pick<CiJob, 'stderr'>,
): Promise<void> {
  const repository = given(env.BITBUCKET_REPO_FULL_NAME);
  if (!repository || !WORKSPACE_REPOSITORY.test(repository) || repository.includes('..') || !isFullCommitId(head)) {
    io.stderr.write('cadence: Code Insights report not sent: BITBUCKET_REPO_FULL_NAME is not workspace/repository\n');
    return;
  }
  const proxy = given(env.CADENCE_BITBUCKET_PROXY) ?? PIPELINES_PROXY;
  try {
    const sent = await uploadInsights(proxy, repository, head, insights);
    io.stderr.write(`cadence: Code Insights report sent to ${repository}@${head.slice(0, 12)} (${sent} annotations)\n`);
  } catch (error) {
    io.stderr.write(`cadence: Code Insights report not sent: ${errorMessage(error)}\n`);
  }
}
