import { appendFile, readFile } from 'node:fs/promises';
import type { CliIo } from '../io.js';
import { CliError } from '../exit-codes.js';
import { ciGate, failOnInput, given, runCi, withValue, type CiCommandOptions } from './ci-run.js';
import { ciSummary } from './summary.js';
import { isFullCommitId } from '@cadence-detect/plugin-sdk';

export type GithubCiOptions = CiCommandOptions;

/** The events whose payload names a pull request's base and head. */
const REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

/**
 * `cadence ci github`: what the GitHub Action runs. Reads what GitHub sets (GITHUB_WORKSPACE,
 * GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, INPUT_* with
 * underscores), analyses the pull request's commits (or a push's), writes the outputs, the job
 * summary and the SARIF, and exits 3 when the verdict reaches fail-on.
 */
export async function runGithubCi(options: GithubCiOptions, io: CliIo): Promise<void> {
  const env = io.env;
  const workspace = given(env.GITHUB_WORKSPACE) ?? io.cwd;
  // Outside an Actions job nothing names the range: a run without one would silently read the whole history.
  if (!given(env.GITHUB_EVENT_PATH)) {
    if (!given(options.base, env.INPUT_BASE)) {
      throw new CliError(
        'usage',
        "cadence ci github runs in a GitHub Actions job, and GITHUB_EVENT_PATH is not set: outside one, give the range's base with --base <commit> (or analyse the whole history with cadence analyze)",
      );
    }
    io.stderr.write('cadence: not in a GitHub Actions job (no GITHUB_EVENT_PATH): analysing from --base to HEAD\n');
  }
  const event = await readEvent(env.GITHUB_EVENT_PATH);
  const name = env.GITHUB_EVENT_NAME ?? '';
  const request = REQUEST_EVENTS.has(name)
    ? (event.pull_request as Record<string, { sha?: unknown } | undefined> | undefined)
    : undefined;
  const base = given(
    options.base,
    env.INPUT_BASE,
    sha(request?.base?.sha),
    name === 'push' ? sha(event.before) : undefined,
  );
  const head = given(sha(request?.head?.sha), name === 'push' ? sha(event.after) : undefined);
  const outcome = await runCi(
    {
      workspace,
      path: given(options.path, env.INPUT_PATH) ?? '.',
      base: base ?? null,
      head: head ?? null,
      failOn: failOnInput(given(options.failOn, env.INPUT_FAIL_ON)),
      ...withValue('config', given(options.config, env.INPUT_CONFIG)),
      ...withValue('sarif', given(options.sarif, env.INPUT_SARIF)),
      deepen: 'Check out with the whole history: actions/checkout with `fetch-depth: 0`.',
    },
    io,
  );
  const { result } = outcome;
  const outputs = given(env.GITHUB_OUTPUT);
  if (outputs)
    await appendFile(
      outputs,
      `assessment=${result.assessment}\nai-share=${result.ai_share.toFixed(4)}\nflagged=${result.suspicions.length}\n`,
    );
  const summary = given(env.GITHUB_STEP_SUMMARY);
  if (summary) await appendFile(summary, ciSummary(result, outcome.checkout, outcome));
  ciGate(outcome);
}

function sha(value: unknown): string | undefined {
  return typeof value === 'string' && isFullCommitId(value, { anyCase: true }) ? value : undefined;
}

/** The event payload GitHub wrote; none (a local run) is an empty event. */
async function readEvent(file: string | undefined): Promise<Record<string, unknown>> {
  if (!given(file)) return {};
  let text: string;
  try {
    text = await readFile(file!, 'utf8');
  } catch (error) {
    throw new CliError('usage', `GITHUB_EVENT_PATH ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    throw new CliError('usage', `GITHUB_EVENT_PATH ${file} is not JSON`);
  }
}
