import { InvalidArgumentError, type Command } from '../../vendor/commander.js';
import { exitCodeOf } from '../exit-codes.js';
import type { CliIo } from '../io.js';

export interface AnalyzeOptions {
  /** Each `-o`, in order. */
  output?: string[];
  branch?: string;
  config?: string;
  suspiciousAdditions?: number;
  json?: boolean;
  verbose?: boolean;
  kind?: 'repository' | 'website';
  failOn?: FailOnLevel;
  /** `--no-lines`: commander sets false. */
  lines?: boolean;
  /** `--no-cache`: commander sets false. */
  cache?: boolean;
}

/** `--fail-on`: the verdict level from which `cadence analyze` ends as a gate (exit 3, cli/exit-codes.ts). */
export type FailOnLevel = 'suspicious' | 'likely_ai_generated';

export function failOnOption(value: string): FailOnLevel {
  if (value !== 'suspicious' && value !== 'likely_ai_generated')
    throw new InvalidArgumentError('must be suspicious or likely_ai_generated');
  return value;
}

function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

function collectOutput(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function kindOption(value: string): 'repository' | 'website' {
  if (value !== 'repository' && value !== 'website') throw new InvalidArgumentError('must be repository or website');
  return value;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('analyze')
    .description('analyze a repository (URL or path) or a website, and report')
    .argument('<url-or-path>', 'repository URL, local path, or website URL')
    .option(
      '-o, --output <report>',
      'write a report; the extension picks the format: .json .txt .html .yaml .yml .sarif (once per format: -o report.html -o report.json)',
      collectOutput,
    )
    .option('--branch <name>', 'branch to analyze (default: the repository\u2019s default branch)')
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .option('--suspicious-additions <n>', 'override thresholds.suspicious_additions', nonNegativeInteger)
    .option('--json', 'print the JSON report to stdout')
    .option('--verbose', 'print every finding, the authors and the strategies (the text report on stdout)')
    .option('--kind <kind>', 'repository or website, for URLs that could be either', kindOption)
    .option('--no-lines', 'skip the lines at HEAD, their survival and rework (docs/lines.md): the commit verdicts only')
    .option('--no-cache', 'neither read nor keep the line pass of a local repository between runs (docs/lines.md)')
    .option(
      '--fail-on <level>',
      `exit ${exitCodeOf('gate')} when the verdict reaches this level: suspicious or likely_ai_generated (for CI gates)`,
      failOnOption,
    )
    // Loaded when the command runs: `cadence version` and `--help` never load the engine, plugins or reports.
    .action(async (target: string, options: AnalyzeOptions) =>
      (await import('./analyze-action.js')).runAnalyze(target, options, io),
    );
}
