import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { importNeedingServer } from '../../optional-packages.js';
import { integer } from './webhook.js';

export interface WorkerCommandOptions {
  concurrency?: number;
  config?: string;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('worker')
    .description('run analysis workers without HTTP: jobs come from the shared queue (queue.backend: redis)')
    .option('--concurrency <n>', 'jobs run at once (webhook.maxWorkers, 4)', integer(1, 1024))
    .option('--config <path>', 'configuration file (YAML or JSON)')
    // The engine, plugins and BullMQ load only when the worker starts.
    .action(async (options: WorkerCommandOptions) =>
      (await importNeedingServer('worker', () => import('./worker-action.js'))).runWorker(options, io),
    );
}
