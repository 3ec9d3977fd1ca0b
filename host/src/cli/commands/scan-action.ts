import { availableParallelism } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';
import picomatch from '../../vendor/picomatch.js';
import type { ResultCache } from '@cadence-detect/engine';
import { toCadenceError } from '@cadence-detect/errors';
import {
  aggregateOrganization,
  parseForgeTarget,
  renderOrganizationText,
  repositoriesFromForge,
  type OrganizationResult,
  type RepositoryOutcome,
} from '@cadence-detect/organization';
import { type RepositoryResult, failsPolicy } from '@cadence-detect/plugin-sdk';
import { escapeBidi, renderReportLazily } from '@cadence-detect/reports/render';
import { missingForgePlugin } from '../../optional-packages.js';
import { createRuntime, type Runtime } from '../../runtime.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { repositoriesFromFile, type ScanTarget } from '../scan/repository-list.js';
import { resultFiles } from '../scan/result-files.js';
import { scanProgress } from '../scan/scan-progress.js';
import { reportContext } from './analyze-action.js';
import type { ScanOptions } from './scan.js';

type OrganizationFormat = 'json' | 'text' | 'html';

/**
 * `cadence scan`: every repository of the target through the same engine `cadence analyze` runs,
 * a few at a time; one that fails is reported with its code and the scan goes on.
 */
export async function runScan(target: string | undefined, options: ScanOptions, io: CliIo): Promise<void> {
  const format = options.output ? organizationFormat(options.output) : null;
  const runtime = await createRuntime(io, {
    ...(options.config ? { configPath: options.config } : {}),
    logStream: io.stderr,
    logLevel: io.env.LOG_LEVEL === 'debug' || io.env.CADENCE_LOGGING_LEVEL === 'debug' ? 'debug' : 'error',
  });
  const controller = new AbortController();
  const { organization, targets } = await listTargets(target, options, io, runtime, controller.signal);
  const { match } = options;
  const selected = withReportNames(
    match ? targets.filter((t) => picomatch(match, { nocase: true, dot: true })(t.repository)) : targets,
  );
  if (selected.length === 0)
    throw new CliError(
      'failed',
      `no repositories to scan in ${organization}${options.match ? ` matching ${options.match}` : ''}`,
    );

  const onInterrupt = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  const progress = scanProgress(io.stderr, selected.length);
  const cache = resultFiles(runtime.config);
  let outcomes: RepositoryOutcome[];
  try {
    outcomes = await pMap(
      selected,
      (t) => scanOne(t, runtime, options, io, { signal: controller.signal, cache }, progress),
      { concurrency: options.concurrency ?? availableParallelism(), signal: controller.signal },
    );
  } finally {
    progress.clear();
    process.removeListener('SIGINT', onInterrupt);
  }
  const org = aggregateOrganization(organization, outcomes, { bands: runtime.config.assessment });
  await writeOrganization(org, format, options, io);
  if (org.counts.analyzed === 0)
    throw new CliError(
      'failed',
      `every listed repository failed (${organization}: ${org.counts.failed} of ${org.counts.listed})`,
    );
  if (options.failOn && failsPolicy(org.assessment, options.failOn))
    throw new CliError('gate', `verdict ${org.assessment} reaches --fail-on ${options.failOn}`);
}

async function listTargets(
  target: string | undefined,
  options: ScanOptions,
  io: CliIo,
  runtime: Runtime,
  signal: AbortSignal,
): Promise<{ organization: string; targets: ScanTarget[] }> {
  if (options.repos !== undefined) {
    if (target !== undefined)
      throw new CliError(
        'usage',
        'give either a target (github:<org>, gitlab:<group>, gitea:<owner>, bitbucket:<workspace>) or --repos <file>, not both',
      );
    return {
      organization: options.name ?? `repositories of ${path.basename(options.repos)}`,
      targets: await repositoriesFromFile(options.repos, io.cwd),
    };
  }
  if (target === undefined)
    throw new CliError(
      'usage',
      'nothing to scan: give github:<org>, gitlab:<group>, gitea:<owner>, bitbucket:<workspace> or --repos <file>',
    );
  const forge = parseForgeTarget(target);
  if (!forge)
    throw new CliError(
      'usage',
      `unknown scan target ${JSON.stringify(target)}: give github:<org>, gitlab:<group>, gitea:<owner>, bitbucket:<workspace> or --repos <file>`,
    );
  const missing = missingForgePlugin(forge.forge, runtime.plugins);
  if (missing) throw missing;
  const filter = { includeForks: options.includeForks === true, includeArchived: options.includeArchived === true };
  return {
    organization: options.name ?? `${forge.forge}:${forge.owner}`,
    targets: await repositoriesFromForge(runtime.plugins, forge, filter, runtime.logger.child('scan'), signal),
  };
}

async function scanOne(
  target: ScanTarget,
  runtime: Runtime,
  options: ScanOptions,
  io: CliIo,
  run: { signal: AbortSignal; cache: ResultCache },
  progress: ReturnType<typeof scanProgress>,
): Promise<RepositoryOutcome> {
  const { signal, cache } = run;
  if (target.refused) return { repository: target.repository, url: target.url, error: target.refused };
  progress.started(target.repository);
  try {
    const result = (await runtime.engine.analyze(
      { kind: 'repository', url: target.url, authors: 'all', ...(options.since ? { since: options.since } : {}) },
      {
        signal,
        network: null,
        allowLocalPaths: true,
        cache,
        ...(target.authorization ? { gitAuthorization: target.authorization } : {}),
      },
    )) as RepositoryResult;
    const report = options.reportsDir
      ? await writeRepositoryReport(target, result, runtime, options, io, options.reportsDir)
      : undefined;
    return { repository: target.repository, url: target.url, result, ...(report ? { report } : {}) };
  } catch (error) {
    if (signal.aborted) throw error;
    const failure = toCadenceError(error);
    return { repository: target.repository, url: target.url, error: { code: failure.code, message: failure.message } };
  } finally {
    progress.finished(target.repository);
  }
}

/** Each repository's own HTML report, named after it; the organization report links to it. */
async function writeRepositoryReport(
  target: ScanTarget,
  result: RepositoryResult,
  runtime: Runtime,
  options: ScanOptions,
  io: CliIo,
  reportsDir: string,
): Promise<string> {
  const dir = path.resolve(io.cwd, reportsDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${target.reportName ?? reportName(target.repository)}.html`);
  await writeFile(file, await renderReportLazily(result, 'html', reportContext(runtime.config, options.failOn)));
  // Relative to where the organization report goes, so the folder can be moved as a whole.
  const from = options.output ? path.dirname(path.resolve(io.cwd, options.output)) : io.cwd;
  return path.relative(from, file).split(path.sep).join('/');
}

/** A file name from a repository name: `acme/api` is `acme--api`; nothing that leaves the folder. */
/** Each target's report file name, made unique up front (`acme/api` and `acme--api` would meet). */
export function withReportNames(targets: readonly ScanTarget[]): ScanTarget[] {
  const used = new Set<string>();
  return targets.map((t) => {
    const base = reportName(t.repository);
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    return { ...t, reportName: name };
  });
}

export function reportName(repository: string): string {
  const name = repository
    .replace(/[/\\]+/g, '--')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.-]+/, '')
    .slice(0, 150);
  return name.length > 0 ? name : 'repository';
}

async function writeOrganization(
  org: OrganizationResult,
  format: OrganizationFormat | null,
  options: ScanOptions,
  io: CliIo,
): Promise<void> {
  const text = renderOrganizationText(org);
  if (options.output && format) {
    const file = path.resolve(io.cwd, options.output);
    // The HTML page is imported only to write one (it brings the report's page parts).
    const html =
      format === 'html' ? (await import('@cadence-detect/organization/html')).renderOrganizationHtml(org) : null;
    await writeFile(file, format === 'json' ? `${escapeBidi(JSON.stringify(org, null, 2))}\n` : (html ?? text));
    io.stderr.write(`organization report written to ${file}\n`);
  }
  if (!options.output) io.stdout.write(text);
}

function organizationFormat(output: string): OrganizationFormat {
  const extension = path.extname(output).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.txt') return 'text';
  if (extension === '.html' || extension === '.htm') return 'html';
  throw new CliError(
    'usage',
    `cannot tell the organization report's format from ${JSON.stringify(output)}: use .json, .html or .txt`,
  );
}
