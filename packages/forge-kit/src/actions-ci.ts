import { appendFile, readFile } from 'node:fs/promises';
import { errorCode } from '@cadence-detect/errors';
import { isFullCommitId, type CiJob } from '@cadence-detect/plugin-sdk';
import { given, withValue } from './ci-inputs.js';
import { ciSummary } from './job-summary.js';

/** How one forge's Actions differ: GitHub's and Gitea's (and Forgejo's) share the runner's variables. */
export interface ActionsCi {
  /** `cadence ci github`, as the refusals name it. */
  readonly command: string;
  /** `GitHub Actions`, `Gitea Actions`. */
  readonly system: string;
  /** How to fetch the whole history in this forge's workflows. */
  readonly deepen: string;
}

/**
 * The start of a workflow's `cadence` job on pull requests, as `cadence config init --ci` writes it
 * for GitHub's and Gitea's Actions: the checkout pinned by full commit (the tag beside it), with the
 * whole history and no token kept in .git/config. `head` holds the workflow's lines between
 * `on: pull_request` and `jobs:` (GitHub's permissions).
 */
export function actionsJobStart(head = ''): string {
  return `name: Cadence
on:
  pull_request:
${head}jobs:
  cadence:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262 # v4.4.0
        with:
          fetch-depth: 0          # Cadence needs the whole history
          persist-credentials: false
`;
}

/** The events whose payload names a pull request's base and head. */
const REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

/**
 * A run in an Actions job. Reads what the runner sets (GITHUB_WORKSPACE, GITHUB_EVENT_NAME,
 * GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY: Gitea's and Forgejo's runners set the same
 * names), the options or their `INPUT_*` names (an action's inputs), analyses the pull request's
 * commits (or a push's), writes the outputs, the job summary and the SARIF, and ends by the gate.
 */
export async function runActionsCi(job: CiJob, actions: ActionsCi): Promise<void> {
  const { env, options } = job;
  const workspace = given(env.GITHUB_WORKSPACE) ?? job.cwd;
  // Outside an Actions job nothing names the range: a run without one would silently read the whole history.
  if (!given(env.GITHUB_EVENT_PATH)) {
    if (!given(options.base, env.INPUT_BASE)) {
      throw job.usage(
        `${actions.command} runs in a ${actions.system} job, and GITHUB_EVENT_PATH is not set: outside one, give the range's base with --base <commit> (or analyse the whole history with cadence analyze)`,
      );
    }
    job.stderr.write(`cadence: not in a ${actions.system} job (no GITHUB_EVENT_PATH): analysing from --base to HEAD\n`);
  }
  const event = await readEvent(job, env.GITHUB_EVENT_PATH);
  const range = eventRange(event, env.GITHUB_EVENT_NAME ?? '');
  const outcome = await job.analyze({
    workspace,
    path: given(options.path, env.INPUT_PATH) ?? '.',
    base: given(options.base, env.INPUT_BASE, range.base) ?? null,
    head: range.head ?? null,
    ...withValue('failOn', given(options.failOn, env.INPUT_FAIL_ON)),
    ...withValue('config', given(options.config, env.INPUT_CONFIG)),
    ...withValue('sarif', given(options.sarif, env.INPUT_SARIF)),
    deepen: actions.deepen,
  });
  const { result } = outcome;
  const outputs = given(env.GITHUB_OUTPUT);
  if (outputs)
    await appendFile(
      outputs,
      `assessment=${result.assessment}\nai-share=${result.ai_share.toFixed(4)}\nflagged=${result.suspicions.length}\n`,
    );
  const summary = given(env.GITHUB_STEP_SUMMARY);
  if (summary) await appendFile(summary, ciSummary(result, outcome.checkout, outcome));
  job.gate(outcome);
}

/** The pull request's base and head, or a push's before and after; nothing for other events. */
function eventRange(event: Record<string, unknown>, name: string): { base?: string; head?: string } {
  const request = REQUEST_EVENTS.has(name)
    ? (event.pull_request as Record<string, { sha?: unknown } | undefined> | undefined)
    : undefined;
  const push = name === 'push';
  return {
    ...withValue('base', sha(request?.base?.sha) ?? (push ? sha(event.before) : undefined)),
    ...withValue('head', sha(request?.head?.sha) ?? (push ? sha(event.after) : undefined)),
  };
}

function sha(value: unknown): string | undefined {
  return typeof value === 'string' && isFullCommitId(value, { anyCase: true }) ? value : undefined;
}

/** The event payload the runner wrote; none (a local run) is an empty event. */
async function readEvent(job: CiJob, file: string | undefined): Promise<Record<string, unknown>> {
  const named = given(file);
  if (!named) return {};
  let text: string;
  try {
    text = await readFile(named, 'utf8');
  } catch (error) {
    throw job.usage(`GITHUB_EVENT_PATH ${named}: ${errorCode(error) ?? 'unreadable'}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    throw job.usage(`GITHUB_EVENT_PATH ${named} is not JSON`);
  }
}
