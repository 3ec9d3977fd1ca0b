import path from 'node:path';
import type { CiJob, CiOutcome, CiRequest } from '@cadence-detect/plugin-sdk';
import { renderReportLazily } from '@cadence-detect/reports/render';
import { createRuntime } from '../../runtime.js';
import { reachesLevel, reportContext } from '../commands/analyze-action.js';
import type { FailOnLevel } from '../commands/analyze.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { ciConfiguration, openCheckout } from './checkout.js';
import { writeReportFile } from './report-file.js';

/**
 * One CI analysis: the change's commits (base..head) judged against the history before them, with
 * configuration that the change itself cannot write, and the SARIF written when asked. The caller
 * writes the forge's own outputs, then ends with the gate (`ciGate`).
 */
export async function runCi(request: CiRequest, given: CliIo): Promise<CiOutcome> {
  const failOnRequested = failOnInput(request.failOn);
  const io = withoutVariables(given, request.ignoreVariables ?? []);
  const checkout = await openCheckout(
    path.resolve(request.workspace, request.path),
    request.base,
    request.head,
    request.deepen,
  );
  const configuration = await ciConfiguration(checkout, request.workspace, request.config);
  try {
    const runtime = await createRuntime(
      { ...io, cwd: checkout.dir },
      {
        ...(configuration.configPath ? { configPath: configuration.configPath } : {}),
        projectFile: configuration.projectFile,
        logStream: io.stderr,
        logLevel: 'error',
      },
    );
    // A CadenceError ends the command by its code (cli/exit-codes.ts).
    const result = await runtime.engine.analyze(
      {
        kind: 'repository',
        url: checkout.dir,
        branch: null,
        ...(checkout.base ? { range: { before: checkout.base, after: checkout.head } } : {}),
      },
      { network: null, allowLocalPaths: true },
    );
    if (result.source_type !== 'git') throw new CliError('failed', 'the analysis did not read a repository');
    const configured = runtime.config.report.fail_on;
    const failOn = failOnRequested ?? (configured === 'never' ? null : configured);
    const gateReached = reachesLevel(result, failOn ?? undefined);
    if (request.sarif) {
      const file = await writeReportFile(
        request.workspace,
        request.sarif,
        await renderReportLazily(result, 'sarif', {
          ...reportContext(runtime.config, undefined),
          fail_on: failOn ?? 'never',
        }),
      );
      io.stderr.write(`SARIF written to ${file}\n`);
    }
    io.stdout.write(
      `cadence: ${result.assessment}: ${result.suspicions.length} of ${result.total_commits} commits flagged, assistant share ${Math.round(result.ai_share * 100)}%\n`,
    );
    return { result, checkout, failOn, gateReached };
  } finally {
    await configuration.cleanup();
  }
}

/** Ends the job by its gate: exit 3 when the verdict reached the fail-on level. */
export function ciGate(outcome: CiOutcome): void {
  if (outcome.gateReached)
    throw new CliError('gate', `verdict ${outcome.result.assessment} reaches fail-on ${outcome.failOn}`);
}

function failOnInput(value: string | undefined): FailOnLevel | null {
  if (value === undefined || value === 'never') return null;
  if (value === 'suspicious' || value === 'likely_ai_generated') return value;
  throw new CliError(
    'usage',
    `fail-on must be never, suspicious or likely_ai_generated, not ${JSON.stringify(value.slice(0, 40))}`,
  );
}

/** The job's environment without the CI variables the runner says are not Cadence settings. */
function withoutVariables(io: CliIo, names: readonly string[]): CliIo {
  if (names.length === 0) return io;
  const env = Object.fromEntries(Object.entries(io.env).filter(([name]) => !names.includes(name)));
  return { ...io, env };
}

/** What a forge's runner is given: the command's options, the job's surroundings, and the host's part of the run. */
export function ciJob(options: CiJob['options'], io: CliIo): CiJob {
  return {
    options,
    env: io.env,
    cwd: io.cwd,
    stdout: io.stdout,
    stderr: io.stderr,
    analyze: (request) => runCi(request, io),
    writeReport: writeReportFile,
    usage: (message) => new CliError('usage', message),
    gate: ciGate,
  };
}
