/** An invalid configuration: one message naming the key and where it came from; the CLI exits 2. */
export class ConfigError extends Error {
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly key?: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}
