import { CommanderError } from '../vendor/commander.js';
import { CadenceError } from '@cadence-detect/errors';

/** How a command ended (docs/cli.md, Exit codes). */
export type CommandOutcome = 'done' | 'failed' | 'usage' | 'gate';

/**
 * The one table of exit codes (docs/cli.md): 0 done, whatever the verdict; 1 the analysis failed;
 * 2 bad usage or configuration; 3 `--fail-on` reached (a CI gate).
 */
const EXIT_CODES: Readonly<Record<CommandOutcome, number>> = { done: 0, failed: 1, usage: 2, gate: 3 };

export function exitCodeOf(outcome: CommandOutcome): number {
  return EXIT_CODES[outcome];
}

/** A command's own refusal: how it ends and the one line it says on stderr. */
export class CliError extends Error {
  constructor(
    readonly outcome: Exclude<CommandOutcome, 'done'>,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * Other packages' errors that are bad usage or configuration: ConfigError (@cadence-detect/config),
 * UsageError (@cadence-detect/reports: a report extension), PluginLoadError and PluginOptionsError
 * (@cadence-detect/plugin-loader), MissingPackageError (an optional package a command or setting needs:
 * optional-packages.ts). Known by their names, so that `cadence version` and `--help`
 * never load those packages (the configuration schema, the engine) to recognise them.
 */
/** Operational codes that say the command named something wrong: exit 2, not 1. */
const USAGE_CODES: ReadonlySet<string> = new Set([
  'ERR_INVALID_SOURCE',
  'ERR_PATH_NOT_FOUND',
  'ERR_NOT_A_REPOSITORY',
  'ERR_BRANCH_NOT_FOUND',
]);

const USAGE_ERRORS: ReadonlySet<string> = new Set([
  'ConfigError',
  'UsageError',
  'PluginLoadError',
  'PluginOptionsError',
  'MissingPackageError',
]);

/**
 * How a command that threw ends: its exit code and the line for stderr (null: commander has said
 * it), or null for an error that is none of ours (a bug, left to propagate). The CLI's one mapping
 * of errors and operational codes to exit codes.
 */
export function commandEnd(error: unknown): { readonly code: number; readonly message: string | null } | null {
  if (error instanceof CliError) return { code: exitCodeOf(error.outcome), message: error.message };
  if (error instanceof CadenceError) {
    // A URL or path refused, or naming what is not there, is bad usage; any other code is the analysis failing.
    return {
      code: exitCodeOf(USAGE_CODES.has(error.code) ? 'usage' : 'failed'),
      message: `${error.code}: ${error.message}`,
    };
  }
  if (error instanceof Error && USAGE_ERRORS.has(error.name))
    return { code: exitCodeOf('usage'), message: error.message };
  // Help and version end 0; every parse error is bad usage.
  if (error instanceof CommanderError)
    return { code: exitCodeOf(error.exitCode === 0 ? 'done' : 'usage'), message: null };
  return null;
}
