import { Command } from '../../vendor/commander.js';
import type { CiRunner } from '@cadence-detect/plugin-sdk';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { ciJob } from './ci-run.js';
import { installedCiRunners, missingCiRunner } from './ci-runners.js';

/** The options every runner's command takes; a runner adds its own (`CiRunner.options`). */
const COMMON_OPTIONS: readonly (readonly [flags: string, description: string])[] = [
  ['--path <dir>', 'the repository, relative to the CI workspace'],
  ['--fail-on <level>', 'exit 3 when the verdict reaches it: never, suspicious or likely_ai_generated'],
  ['--config <file>', 'a configuration file outside the checkout, or a path read at the base commit'],
  ['--sarif <file>', 'also write SARIF'],
  [
    '--base <ref>',
    'analyze the commits after this one (default: the change\u2019s base, from the CI\u2019s variables)',
  ],
];

/** `cadence ci <forge> [options]`: finds the forge's runner among the installed plugins and runs it. */
export async function runCiCommand(forge: string | undefined, args: readonly string[], io: CliIo): Promise<void> {
  const installed = await installedCiRunners();
  const { runners } = installed;
  if (forge === undefined)
    throw new CliError('usage', `cadence ci needs a forge: ${[...runners.keys()].join(', ') || 'none is installed'}`);
  // `cadence ci help gitlab` is `cadence ci gitlab --help`, as commander's own help command reads.
  if (forge === 'help' && args[0] !== undefined && !args[0].startsWith('-'))
    return runCiCommand(args[0], ['--help'], io);
  if (forge === '--help' || forge === '-h' || forge === 'help') {
    const listing = [...runners].map(([name, runner]) => `  ${name.padEnd(12)}${runner.description}`);
    io.stdout.write(
      `Usage: cadence ci <forge> [options]\n\nRuns in a forge's CI job; cadence ci <forge> --help gives its options.\n\nForges:\n${listing.join('\n') || '  (none installed)'}\n`,
    );
    return;
  }
  if (forge.startsWith('-'))
    throw new CliError(
      'usage',
      `options go after the forge: cadence ci <forge> [options] (${forge.slice(0, 40)} came first)`,
    );
  const runner = runners.get(forge);
  if (!runner) throw missingCiRunner(forge, installed);
  await runnerCommand(forge, runner, io).parseAsync([...args], { from: 'user' });
}

/** The forge's command: the common options and the runner's own, parsed as any command's are. */
export function runnerCommand(forge: string, runner: CiRunner, io: CliIo): Command {
  const command = new Command(`cadence ci ${forge}`)
    .description(runner.description)
    .exitOverride()
    .showHelpAfterError(`(run cadence ci ${forge} --help for usage)`)
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
    });
  for (const [flags, description] of COMMON_OPTIONS) command.option(flags, description);
  for (const option of runner.options ?? []) {
    // A runner's flag that another option already has (or help's, or the version's) would shadow it.
    const clash =
      command.options.find((known) =>
        option.flags.split(/[ ,|]+/).some((flag) => flag === known.short || flag === known.long),
      ) ??
      (/(^|[ ,|])(-h|--help|-V|--version)([ ,|<[]|$)/.test(option.flags) ? { flags: 'help or version' } : undefined);
    if (clash)
      throw new CliError(
        'failed',
        `the ${forge} plugin's CI runner declares ${option.flags}, which ${clash.flags} already is: the plugin needs mending`,
      );
    if (option.default === undefined) command.option(option.flags, option.description);
    else command.option(option.flags, option.description, option.default);
  }
  return command.action((options: Record<string, string | boolean | undefined>) => runner.run(ciJob(options, io)));
}
