import { Command } from '../vendor/commander.js';
import { displayLine } from '@cadence-detect/reports/display-text';
import { HOST_VERSION } from './host-version.js';
import { commandEnd } from './exit-codes.js';
import type { CliIo } from './io.js';
import { register as registerAnalyze } from './commands/analyze.js';
import { register as registerCi } from './commands/ci.js';
import { register as registerConfig } from './commands/config.js';
import { register as registerPlugins } from './commands/plugins.js';
import { register as registerScan } from './commands/scan.js';
import { register as registerVersion } from './commands/version.js';
import { register as registerWebhook } from './commands/webhook.js';
import { register as registerWorker } from './commands/worker.js';

/** Every command, one file each; adding a command is one line here. */
const COMMANDS = [
  registerAnalyze,
  registerCi,
  registerConfig,
  registerPlugins,
  registerScan,
  registerVersion,
  registerWebhook,
  registerWorker,
];

/** Runs the CLI and returns its exit code (0 done, 1 failed, 2 bad usage or configuration). */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = new Command('cadence')
    .description('Tells when code or web content looks machine-generated.')
    .version(`cadence v${HOST_VERSION}`, '-V, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(run cadence --help for usage)')
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
    });
  for (const register of COMMANDS) register(program, io);
  for (const command of program.commands) {
    command.exitOverride();
    for (const sub of command.commands) sub.exitOverride();
  }
  try {
    await program.parseAsync([...argv], { from: 'node' });
    return 0;
  } catch (error) {
    const end = commandEnd(error);
    if (!end) throw error;
    // Messages can quote a branch, path or URL from the repository: one line, nothing a terminal acts on.
    if (end.message !== null) io.stderr.write(`cadence: ${displayLine(end.message)}\n`);
    return end.code;
  }
}

function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
