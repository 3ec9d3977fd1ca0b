import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configInitTemplate, renderConfigYaml } from '@cadence-detect/config';
import { CliExit, type CliIo } from '../io.js';
import { loadCliConfig } from '../load-config.js';

/** `cadence config`: the effective configuration as YAML, secrets masked. */
export async function printConfig(options: { config?: string }, io: CliIo): Promise<void> {
  const { config: effective, files } = await loadCliConfig(io, options.config);
  io.stdout.write(`# effective configuration${files.length > 0 ? ` (${files.length > 1 ? 'files' : 'file'}: ${files.join(', ')})` : ' (no configuration file)'}\n`);
  io.stdout.write(renderConfigYaml(effective));
}

/** `cadence config init`: a commented `.cadence.yaml` where the user stands (data only: it never loads plugins). */
export async function initConfig(options: { force?: boolean }, io: CliIo): Promise<void> {
  const target = path.join(io.cwd, '.cadence.yaml');
  if (existsSync(target) && !options.force) {
    throw new CliExit(2, `${target} exists; use --force to overwrite it`);
  }
  await writeFile(target, configInitTemplate());
  io.stdout.write(`wrote ${target}\n`);
}
