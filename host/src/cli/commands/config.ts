import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { configInitTemplate, renderConfigYaml } from '@cadence/config';
import { CliExit, type CliIo } from '../io.js';
import { loadCliConfig } from '../load-config.js';

export function register(program: Command, io: CliIo): void {
  const config = program
    .command('config')
    .description('print the effective configuration (secrets masked)')
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .action(async (options: { config?: string }) => {
      const { config: effective, files } = await loadCliConfig(io, options.config);
      io.stdout.write(`# effective configuration${files.length > 0 ? ` (${files.length > 1 ? 'files' : 'file'}: ${files.join(', ')})` : ' (no configuration file)'}\n`);
      io.stdout.write(renderConfigYaml(effective));
    });
  config
    .command('init')
    .description('write a commented .cadence.yaml in the current directory')
    .option('--force', 'overwrite an existing .cadence.yaml')
    .action(async (options: { force?: boolean }) => {
      const target = path.join(io.cwd, '.cadence.yaml');
      if (existsSync(target) && !options.force) {
        throw new CliExit(2, `${target} exists; use --force to overwrite it`);
      }
      await writeFile(target, configInitTemplate());
      io.stdout.write(`wrote ${target}\n`);
    });
}
