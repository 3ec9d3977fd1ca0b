import { InvalidArgumentError, type Command } from '../../vendor/commander.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  const config = program
    .command('config')
    .description('print the effective configuration (secrets masked)')
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .action(async (options: { config?: string }) => (await import('./config-action.js')).printConfig(options, io));
  config
    .command('init')
    .description('write a commented .cadence.yaml in the current directory')
    .option('--force', 'overwrite existing files')
    .option(
      '--ci <forge>',
      'also write the CI set-up the forge plugin gives (cadence ci --help lists the installed forges)',
      ciForge,
    )
    .action(async (options: { force?: boolean; ci?: string }) =>
      (await import('./config-action.js')).initConfig(options, io),
    );
}

/** A forge's name as plugins declare it: lower-case letters, digits and dashes. */
function ciForge(value: string): string {
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(value))
    throw new InvalidArgumentError(
      'must be a forge name (lower-case letters, digits and dashes), as cadence ci --help lists them',
    );
  return value;
}
