import { createRequire } from 'node:module';
import type Bunyan from 'bunyan';
import { redact, redactString } from './redaction.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
type RecordLevel = LogLevel | 'fatal';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  fatal(message: string, fields?: Record<string, unknown>): void;
  /** A logger for one component; `fields` are added to each of its lines. */
  child(component: string, fields?: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  readonly level: LogLevel;
  readonly component?: string;
  /** Where lines go (stdout by default): anything with write(string). */
  readonly stream?: { write(chunk: string): unknown };
  /**
   * Values to scrub from every line wherever they appear (the webhook secret, API keys, tokens).
   * Read at each line, not copied: values the caller adds later (plugins' secrets, known once the
   * plugins have loaded) are scrubbed from then on.
   */
  readonly secrets?: readonly string[];
  /**
   * bunyan writes the records where it is installed (with the server: `@cadence-detect/server`
   * depends on it); the CLI alone, which CI installs, does not bring it (its DTrace add-on has an
   * install script) and writes the same record itself. `false` forces that writer (tests).
   */
  readonly bunyan?: boolean;
}

/**
 * bunyan where this package can resolve it (null for the CLI installed alone), loaded at the first
 * record a logger writes: a command that logs nothing (most CLI runs) never pays for bunyan's
 * modules, about 35 ms of every process's start.
 */
const bunyanLoader: (() => typeof Bunyan) | null = (() => {
  const load = createRequire(import.meta.url);
  try {
    load.resolve('bunyan');
  } catch {
    return null;
  }
  let loaded: typeof Bunyan | undefined;
  return () => (loaded ??= load('bunyan') as typeof Bunyan);
})();

const LEVEL_NUMBERS: Record<RecordLevel, number> = { debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

const LEVEL_NAMES: Record<number, RecordLevel> = {
  10: 'debug',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** bunyan's own record fields, replaced by the record docs/deploy.md describes. */
const BUNYAN_FIELDS = new Set(['name', 'hostname', 'pid', 'level', 'msg', 'time', 'v', 'component']);

/**
 * bunyan does the levels, children and serialization; a raw stream reshapes each record to
 * docs/deploy.md (`timestamp`, `level` as a word, `component`, `message`, `duration_ms`) and
 * redacts secrets before the line is written.
 */
export function createLogger(options: LoggerOptions): Logger {
  const output = options.stream ?? process.stdout;
  const secrets = options.secrets ?? [];
  const reshape = {
    write(record: Record<string, unknown>): void {
      const fields: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(record)) if (!BUNYAN_FIELDS.has(key)) fields[key] = value;
      const line: Record<string, unknown> = {
        timestamp: record.time instanceof Date ? record.time.toISOString() : new Date().toISOString(),
        level: LEVEL_NAMES[Number(record.level)] ?? 'info',
        component: record.component ?? 'cadence',
        message: redactString(typeof record.msg === 'string' ? record.msg : '', secrets),
      };
      if (typeof fields.duration_ms === 'number') fields.duration_ms = Math.round(fields.duration_ms);
      Object.assign(line, redact(fields, secrets));
      output.write(`${JSON.stringify(line)}\n`);
    },
  };
  const component = options.component ?? 'cadence';
  const threshold = LEVEL_NUMBERS[options.level];
  const loadBunyan = options.bunyan === false ? null : bunyanLoader;
  if (!loadBunyan) return recordWriter(reshape, threshold, { component });
  let root: Bunyan | undefined;
  const rootLogger = (): Bunyan =>
    (root ??= loadBunyan().createLogger({
      name: 'cadence',
      component,
      streams: [{ type: 'raw', stream: reshape as unknown as NodeJS.WritableStream, level: options.level }],
    }));
  return deferred(rootLogger, threshold);
}

/**
 * bunyan's logger, made when a record first passes the level (below it bunyan writes nothing
 * either), its children made from their parent's at that point.
 */
function deferred(make: () => Bunyan, threshold: number): Logger {
  let inner: Bunyan | undefined;
  const log = (level: RecordLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVEL_NUMBERS[level] < threshold) return;
    inner ??= make();
    if (fields) inner[level](fields, message);
    else inner[level](message);
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    fatal: log('fatal'),
    child: (component, fields) => deferred(() => (inner ??= make()).child({ ...fields, component }, false), threshold),
  };
}

/** The same records without bunyan: levels, children and their fields, as bunyan hands them to `reshape`. */
function recordWriter(
  reshape: { write(record: Record<string, unknown>): void },
  threshold: number,
  bound: Record<string, unknown>,
): Logger {
  const log = (level: RecordLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVEL_NUMBERS[level] < threshold) return;
    reshape.write({ ...bound, ...fields, time: new Date(), level: LEVEL_NUMBERS[level], msg: message });
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    fatal: log('fatal'),
    child: (component, fields) => recordWriter(reshape, threshold, { ...bound, ...fields, component }),
  };
}

/** A logger that writes nothing (tests, embedding). */
export function silentLogger(): Logger {
  const noop = (): void => undefined;
  const logger: Logger = { debug: noop, info: noop, warn: noop, error: noop, fatal: noop, child: () => logger };
  return logger;
}

export { redact, redactString, REDACTED } from './redaction.js';
