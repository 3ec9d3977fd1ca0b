import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnalysisRequest } from '@cadence/engine';
import { CadenceError } from '@cadence/errors';
import { answersAsRepository, parseRepositoryUrl } from '@cadence/git-source';
import { renderReportLazily, reportFormatFromPath, UsageError, type ReportFormat } from '@cadence/reports/render';
import { createRuntime } from '../../runtime.js';
import { CliExit, type CliIo } from '../io.js';
import { progressLine } from '../progress-line.js';
import type { AnalyzeOptions } from './analyze.js';

const PROBE_TIMEOUT_MS = 8000;

/** `cadence analyze`: one analysis through the same engine the server runs, then the report. */
export async function runAnalyze(target: string, options: AnalyzeOptions, io: CliIo): Promise<void> {
  const format: ReportFormat | null = options.output ? reportFormat(options.output) : null;
  const flags = options.suspiciousAdditions !== undefined ? { thresholds: { suspicious_additions: options.suspiciousAdditions } } : {};
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
      onEvent: progress.onEvent,
      network: null,
      allowLocalPaths: true,
    });
    progress.clear();
    if (options.output && format) {
      const file = path.resolve(io.cwd, options.output);
      await writeFile(file, await renderReportLazily(result, format));
      io.stderr.write(`report written to ${file}\n`);
    }
    if (options.json) io.stdout.write(await renderReportLazily(result, 'json'));
    else if (!options.output) io.stdout.write(await renderReportLazily(result, 'text'));
  } catch (error) {
    progress.clear();
    if (error instanceof CadenceError) {
      throw new CliExit(error.code === 'ERR_INVALID_SOURCE' ? 2 : 1, `${error.code}: ${error.message}`);
    }
    throw error;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

function reportFormat(output: string): ReportFormat {
  try {
    return reportFormatFromPath(output);
  } catch (error) {
    if (error instanceof UsageError) throw new CliExit(2, error.message);
    throw error;
  }
}

/** Decisions §12: a path or ssh/git URL is a repository; an http(s) URL is one if git answers. */
async function buildRequest(target: string, options: AnalyzeOptions, io: CliIo): Promise<AnalysisRequest> {
  const kind = options.kind ?? (await guessKind(target, io));
  if (kind === 'website') return { kind: 'website', url: target };
  const url = isUrlLike(target) ? target : path.resolve(io.cwd, target);
  return { kind: 'repository', url, branch: options.branch ?? null };
}

function isUrlLike(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || /^[^/\s]+@[^/\s]+:/.test(target);
}

async function guessKind(target: string, io: CliIo): Promise<'repository' | 'website'> {
  try {
    if (!/^https?:\/\//i.test(target)) {
      // Refuses hostile input (exit 2) and a path that does not exist (exit 1) before any work.
      parseRepositoryUrl(isUrlLike(target) ? target : path.resolve(io.cwd, target), { allowLocalPaths: true });
      return 'repository';
    }
    return (await answersAsRepository(target, PROBE_TIMEOUT_MS)) ? 'repository' : 'website';
  } catch (error) {
    if (error instanceof CadenceError) throw new CliExit(error.code === 'ERR_INVALID_SOURCE' ? 2 : 1, `${error.code}: ${error.message}`);
    throw error;
  }
}
