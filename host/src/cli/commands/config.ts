import type { Command } from 'commander';
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
    .option('--force', 'overwrite an existing .cadence.yaml')
    .action(async (options: { force?: boolean }) => (await import('./config-action.js')).initConfig(options, io));
}
