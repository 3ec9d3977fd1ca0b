import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPluginPackage, StarterError, starterNames } from './create-plugin-package.js';

export interface CliIo {
  readonly cwd: string;
  readonly out: { write(text: string): unknown };
  readonly err: { write(text: string): unknown };
}

const USAGE = `Usage: npm init @cadence-detect/plugin <name> [-- --dir <folder>]
Writes a Cadence strategy plugin package (typed options, one strategy, a testkit table test).
<name>: big-commits, cadence-plugin-big-commits or @acme/cadence-plugin-big-commits.
--dir: where to write it (default: a new folder named after the package, here).
`;

/** `create-plugin <name> [--dir <folder>]`: 0 once written, 2 for a refusal (one line on stderr). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    io.err.write(`create-plugin: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out.write(USAGE);
    return 0;
  }
  const [requested, ...rest] = parsed.positionals;
  if (!requested || rest.length > 0) {
    io.err.write(`create-plugin: give one name\n${USAGE}`);
    return 2;
  }
  try {
    const names = starterNames(requested);
    const folder = path.resolve(io.cwd, parsed.values.dir ?? names.packageName.split('/').pop() ?? names.packageName);
    const written = await createPluginPackage(requested, folder);
    io.out.write(
      `Wrote ${names.packageName} (plugin and strategy "${names.pluginName}") in ${folder}:\n` +
        written.map((file) => `  ${file}\n`).join('') +
        `Next:\n  cd ${path.relative(io.cwd, folder) || '.'}\n  npm install\n  npm test\n  npm run typecheck\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof StarterError)) throw error;
    io.err.write(`create-plugin: ${error.message}\n`);
    return 2;
  }
}
