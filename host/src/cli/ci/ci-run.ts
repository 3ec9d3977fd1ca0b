import path from 'node:path';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { renderReportLazily } from '@cadence-detect/reports/render';
import { createRuntime } from '../../runtime.js';
import { reachesLevel, reportContext } from '../commands/analyze-action.js';
import type { FailOnLevel } from '../commands/analyze.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { ciConfiguration, openCheckout, type CiCheckout } from './checkout.js';
import { writeReportFile } from './report-file.js';

/** The options every `cadence ci <forge>` command takes; a forge's command adds its own. */
export interface CiCommandOptions {
  path?: string;
  failOn?: string;
  config?: string;
  sarif?: string;
  base?: string;
}

/** What a forge's CI job asks for, once its own variables are read. */
export interface CiRequest {
  readonly workspace: string;
  readonly path: string;
  /** The commit the change starts from (a pull request's base), or null. */
  readonly base: string | null;
  /** The change's head, or null: the checkout's HEAD. */
  readonly head: string | null;
  readonly failOn: FailOnLevel | null;
  readonly config?: string;
  readonly sarif?: string;
  /** How to fetch the whole history, in the forge's words (a shallow checkout's error says it). */
  readonly deepen: string;
}

export interface CiOutcome {
  readonly result: RepositoryResult;
  readonly checkout: CiCheckout;
  /** The level the gate used (the request's, else `report.fail_on`), or null: never fails. */
  readonly failOn: FailOnLevel | null;
  readonly gateReached: boolean;
}

/**
 * One CI analysis: the change's commits (base..head) judged against the history before them, with
 * configuration that the change itself cannot write, and the SARIF written when asked. The caller
 * writes the forge's own outputs, then ends with the gate (`ciGate`).
 */
export async function runCi(request: CiRequest, io: CliIo): Promise<CiOutcome> {
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
    const failOn = request.failOn ?? (configured === 'never' ? null : configured);
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

/** An input that is set: CI systems pass unset inputs as empty strings. */
export function given(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v.trim() !== '')?.trim();
}

/** `{ [key]: value }` when the value was given, else nothing: for a request's optional fields. */
export function withValue<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

export function failOnInput(value: string | undefined): FailOnLevel | null {
  if (value === undefined || value === 'never') return null;
  if (value === 'suspicious' || value === 'likely_ai_generated') return value;
  throw new CliError(
    'usage',
    `fail-on must be never, suspicious or likely_ai_generated, not ${JSON.stringify(value.slice(0, 40))}`,
  );
}
