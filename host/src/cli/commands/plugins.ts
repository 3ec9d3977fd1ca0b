import type { Command } from 'commander';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('plugins')
    .description('list the plugins that would load, from where, and why not')
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .action(async (options: { config?: string }) => (await import('./plugins-action.js')).runPlugins(options, io));
}
