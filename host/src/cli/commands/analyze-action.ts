import { itemAt } from '@cadence-detect/errors';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnalysisRequest } from '@cadence-detect/engine';
import { answersAsRepository, parseRepositoryUrl } from '@cadence-detect/git-source';
import { maskSecrets, type CadenceConfig } from '@cadence-detect/config';
import { type AnalysisResult, failsPolicy } from '@cadence-detect/plugin-sdk';
import {
  renderReportLazily,
  reportFormatFromPath,
  type ReportContext,
  type ReportFormat,
} from '@cadence-detect/reports/render';
import { HOST_VERSION } from '../host-version.js';
import { createRuntime } from '../../runtime.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { progressLine } from '../progress-line.js';
import type { AnalyzeOptions, FailOnLevel } from './analyze.js';

const PROBE_TIMEOUT_MS = 8000;

/** `cadence analyze`: one analysis through the same engine the server runs, then the report. */
export async function runAnalyze(target: string, options: AnalyzeOptions, io: CliIo): Promise<void> {
  // An unknown extension, or two reports of one format, is a usage error: exit 2, before any work.
  const outputs = reportOutputs(options.output ?? []);
  const flags =
    options.suspiciousAdditions !== undefined
      ? { thresholds: { suspicious_additions: options.suspiciousAdditions } }
      : {};
  const runtime = await createRuntime(io, {
    ...(options.config ? { configPath: options.config } : {}),
    flags,
    logStream: io.stderr,
    logLevel: io.env.LOG_LEVEL === 'debug' || io.env.CADENCE_LOGGING_LEVEL === 'debug' ? 'debug' : 'error',
  });
  const request = await buildRequest(target, options, io);
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  const progress = progressLine(io.stderr);
  try {
    const result = await runtime.engine.analyze(request, {
      signal: controller.signal,
      onEvent: (event) => progress.onEvent(event),
      network: null,
      allowLocalPaths: true,
    });
    progress.clear();
    // Said once on stderr whatever the output: the verdict stands on a history git could not wholly read.
    if (result.source_type === 'git' && result.unreadable_commits) {
      io.stderr.write(
        `cadence: warning: the repository lacks versions of ${(result.unreadable_files ?? []).length} file(s); ${result.unreadable_commits} commit(s) judged without their lines (unreadable_commits)\n`,
      );
    }
    const context = reportContext(runtime.config, options.failOn);
    for (const { file, format } of outputs) {
      const written = path.resolve(io.cwd, file);
      await writeFile(written, await renderReportLazily(result, format, context));
      io.stderr.write(`report written to ${written}\n`);
    }
    if (options.json) io.stdout.write(await renderReportLazily(result, 'json', context));
    // On stdout the verdict and the findings that matter; --verbose (or -o report.txt) has everything.
    else if (outputs.length === 0)
      io.stdout.write(await renderReportLazily(result, 'text', context, { verbose: options.verbose ?? false }));
    verdictGate(result, options.failOn);
  } catch (error) {
    // A CadenceError ends the command by its code (cli/exit-codes.ts).
    progress.clear();
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

/** The `-o` reports, each with its format: one per format (a second would silently replace the first's choice). */
function reportOutputs(files: readonly string[]): { file: string; format: ReportFormat }[] {
  const outputs = files.map((file) => ({ file, format: reportFormatFromPath(file) }));
  for (const [index, { file, format }] of outputs.entries()) {
    const first = outputs.findIndex((o) => o.format === format);
    if (first !== index)
      throw new CliError(
        'usage',
        `-o ${itemAt(outputs, first).file} and -o ${file} are both ${format} reports: give one -o per format (for example -o report.html -o report.json)`,
      );
  }
  return outputs;
}

/** Whether the verdict is at or above a `--fail-on` level (the plugin SDK's ranking of both vocabularies, as reporters and SARIF use). */
export function reachesLevel(result: AnalysisResult, failOn: FailOnLevel | undefined): boolean {
  return failOn !== undefined && failsPolicy(result.assessment, failOn);
}

/** `--fail-on`: after the report is out, a verdict at or above the level ends the command with its own code. */
export function verdictGate(result: AnalysisResult, failOn: FailOnLevel | undefined): void {
  if (reachesLevel(result, failOn))
    throw new CliError('gate', `verdict ${result.assessment} reaches --fail-on ${failOn}`);
}

/**
 * What the report says about itself: this version, now, the analysis settings (no server or secret
 * settings), and the verdict policy: `--fail-on` when given, else `report.fail_on`.
 */
export function reportContext(config: CadenceConfig, failOn: FailOnLevel | undefined): ReportContext {
  const masked = maskSecrets(config);
  return {
    tool: 'cadence',
    version: HOST_VERSION,
    generated_at: new Date().toISOString(),
    fail_on: failOn ?? config.report.fail_on,
    configuration: {
      thresholds: masked.thresholds,
      assessment: masked.assessment,
      exclude_files: masked.exclude_files,
      strategies: masked.strategies,
      git: masked.git,
      plugins: masked.plugins,
      // Plugin options can hold a plugin's secrets: their names are shown, not their values.
      plugin_options: Object.keys(masked.plugin_options),
    },
  };
}

/** A path or ssh/git URL is a repository; an http(s) URL is one if git answers (docs/cli.md). */
async function buildRequest(target: string, options: AnalyzeOptions, io: CliIo): Promise<AnalysisRequest> {
  const kind = options.kind ?? (await guessKind(target, io));
  if (kind === 'website') return { kind: 'website', url: target };
  const url = isUrlLike(target) ? target : path.resolve(io.cwd, target);
  return {
    kind: 'repository',
    url,
    branch: options.branch ?? null,
    ...(options.lines === false ? { lines: false } : {}),
    ...(options.cache === false ? { cache: false } : {}),
  };
}

function isUrlLike(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || /^[^/\s]+@[^/\s]+:/.test(target);
}

async function guessKind(target: string, io: CliIo): Promise<'repository' | 'website'> {
  if (!/^https?:\/\//i.test(target)) {
    // Refuses hostile input (ERR_INVALID_SOURCE, exit 2) and a path that does not exist (exit 1) before any work.
    parseRepositoryUrl(isUrlLike(target) ? target : path.resolve(io.cwd, target), { allowLocalPaths: true });
    return 'repository';
  }
  return (await answersAsRepository(target, PROBE_TIMEOUT_MS)) ? 'repository' : 'website';
}
