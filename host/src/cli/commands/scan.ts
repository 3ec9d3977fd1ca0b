import { InvalidArgumentError, type Command } from '../../vendor/commander.js';
import { exitCodeOf } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { failOnOption, type FailOnLevel } from './analyze.js';

export interface ScanOptions {
  repos?: string;
  since?: string;
  concurrency?: number;
  output?: string;
  reportsDir?: string;
  failOn?: FailOnLevel;
  config?: string;
  includeForks?: boolean;
  includeArchived?: boolean;
  match?: string;
  name?: string;
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d{0,3}$/.test(value)) throw new InvalidArgumentError('must be an integer from 1 to 9999');
  return Number(value);
}

/** A date or date-time git and people both read: `2025-01-31` or ISO 8601 with a time. */
export function sinceOption(value: string): string {
  if (
    !/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/.test(value) ||
    Number.isNaN(Date.parse(value))
  ) {
    throw new InvalidArgumentError('must be a date: YYYY-MM-DD or an ISO 8601 date-time');
  }
  return new Date(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)).toISOString();
}

export function register(program: Command, io: CliIo): void {
  program
    .command('scan')
    .description(
      'analyze every repository of a GitHub organization, GitLab group, Gitea or Forgejo owner or Bitbucket workspace (or a list), per author and per month',
    )
    .argument(
      '[target]',
      'github:<org>, gitlab:<group> (subgroups included), gitea:<owner> or bitbucket:<workspace>; or give --repos',
    )
    .option('--repos <file>', 'repositories to scan, one URL or path a line (# starts a comment)')
    .option(
      '--since <date>',
      'judge only commits authored from this date (earlier ones still set the baselines)',
      sinceOption,
    )
    .option('--concurrency <n>', 'repositories analyzed at once (default: the number of cores)', positiveInteger)
    .option('-o, --output <report>', 'write the organization report; the extension picks the format: .json .txt .html')
    .option('--reports-dir <dir>', 'write each repository\u2019s own HTML report into this folder')
    .option(
      '--fail-on <level>',
      `exit ${exitCodeOf('gate')} when the organization\u2019s verdict reaches this level: suspicious or likely_ai_generated`,
      failOnOption,
    )
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .option('--include-forks', 'also scan forks (left out by default)')
    .option('--include-archived', 'also scan archived repositories (left out by default)')
    .option(
      '--name <title>',
      'what the organization report calls the scanned set (default: github:<org>, gitlab:<group>, or "repositories of <file>")',
    )
    .option('--match <glob>', 'only repositories whose name (owner/name or group/…/project) matches this glob')
    .action(async (target: string | undefined, options: ScanOptions) =>
      (await import('./scan-action.js')).runScan(target, options, io),
    );
}
