import type { Command } from 'commander';
import { HOST_VERSION } from '../host-version.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('version')
    .description('print the version')
    .action(() => {
      io.stdout.write(`cadence v${HOST_VERSION}\n`);
    });
}
