// Placeholder entry point: the CLI commands are added by the CLI work.
export async function main(_argv: string[]): Promise<number> {
  process.stdout.write('cadence v0.1.0\n');
  return 0;
}
