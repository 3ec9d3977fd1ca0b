import { InvalidArgumentError, type Command } from 'commander';
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
      'also write the CI set-up: github (.github/workflows/cadence.yml), gitlab (an include in .gitlab-ci.yml) or bitbucket (bitbucket-pipelines.yml)',
      ciForge,
    )
    .action(async (options: { force?: boolean; ci?: 'github' | 'gitlab' | 'bitbucket' }) =>
      (await import('./config-action.js')).initConfig(options, io),
    );
}

function ciForge(value: string): 'github' | 'gitlab' | 'bitbucket' {
  if (value !== 'github' && value !== 'gitlab' && value !== 'bitbucket')
    throw new InvalidArgumentError('must be github, gitlab or bitbucket');
  return value;
}
