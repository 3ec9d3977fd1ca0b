/** An invalid configuration: one message naming the key and where it came from (the CLI exits 2: host/src/cli/exit-codes.ts). */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly key?: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}
