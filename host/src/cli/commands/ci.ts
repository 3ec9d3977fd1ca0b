import type { Command } from 'commander';
import type { CliIo } from '../io.js';

/**
 * `cadence ci <forge>`: the analysis a forge's CI job runs on a change (docs/ci.md). The runner is
 * the forge plugin's (`forge.ci`): its options are known once the plugins load, so they are parsed
 * then (`cadence ci <forge> --help` lists them).
 */
export function register(program: Command, io: CliIo): void {
  program
    .command('ci')
    .description(
      "analyze a pull or merge request in a forge's CI job: outputs, summary, SARIF or the forge's report, and a gate (cadence ci <forge> --help)",
    )
    .argument('[forge]', 'the forge whose CI job this is: its plugin brings the runner')
    .argument('[options...]', 'the runner\u2019s options')
    .allowUnknownOption()
    .allowExcessArguments()
    .helpOption(false)
    .action(async (forge: string | undefined, args: string[]) =>
      (await import('../ci/ci-command.js')).runCiCommand(forge, args, io),
    );
}
