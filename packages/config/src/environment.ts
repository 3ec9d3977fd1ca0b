import { isRecord, itemAt } from '@cadence-detect/errors';
import { ConfigError } from './config-error.js';
import { leafKeys, type LeafKind } from './schema.js';

/**
 * docs/configuration.md (environment variables): bare names kept as aliases; where both are set,
 * the CADENCE_ name wins. A plugin's options name theirs in their schema (`env: ['BATCH_SIZE']`).
 */
const ALIASES: Record<string, string[]> = {
  'logging.level': ['LOG_LEVEL'],
  'webhook.maxWorkers': ['MAX_WORKERS'],
  'cache.max_size': ['CACHE_MAX_SIZE'],
  'git.depth': ['GIT_DEPTH'],
};
/** Names that do not follow the general rule (the interface's spelling). */
const PRIMARY_OVERRIDES: Record<string, string> = {
  'webhook.read_timeout_seconds': 'CADENCE_WEBHOOK_READ_TIMEOUT',
  'webhook.write_timeout_seconds': 'CADENCE_WEBHOOK_WRITE_TIMEOUT',
};
/**
 * Set but empty is refused for these rather than read as unset: an empty API token would silently
 * run the API without authentication, which is not what setting it asks for.
 */
const EMPTY_REFUSED = new Set(['api.token']);
/** Lists that only the configuration file sets. */
const FILE_ONLY = new Set(['plugins', 'strategies.disabled', 'scans.schedule']);

/** `webhook.maxWorkers` → `CADENCE_WEBHOOK_MAX_WORKERS`. */
export function environmentName(path: string): string {
  if (PRIMARY_OVERRIDES[path]) return PRIMARY_OVERRIDES[path];
  return `CADENCE_${path
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\./g, '_')
    .toUpperCase()}`;
}

export function environmentNames(path: string): string[] {
  if (FILE_ONLY.has(path)) return [];
  return [environmentName(path), ...(ALIASES[path] ?? [])];
}

/** The configuration the environment sets, as a partial config object. */
export function configFromEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { path, kind } of leafKeys()) {
    for (const name of environmentNames(path)) {
      const raw = env[name];
      if (raw === '' && EMPTY_REFUSED.has(path)) {
        throw new ConfigError(
          `Invalid configuration: ${path} (from the environment variable ${name}) is set but empty; unset it to run without a token, or give a token`,
          path,
        );
      }
      if (raw === undefined || raw === '') continue;
      setPath(out, path, parseValue(raw, kind, name, path));
      break;
    }
  }
  return out;
}

export function parseValue(raw: string, kind: LeafKind, name: string, path: string): unknown {
  const bad = (expected: string): never => {
    throw new ConfigError(
      `Invalid configuration: ${path} (from the environment variable ${name}) must be ${expected}, got ${JSON.stringify(raw.slice(0, 40))}`,
      path,
    );
  };
  switch (kind) {
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      return bad('true or false');
    case 'integer':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw) : bad('an integer');
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : bad('a number');
    case 'strings':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'string-or-number':
      return /^\d+$/.test(raw.trim()) ? Number(raw) : raw.trim();
    default:
      return raw;
  }
}

export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    const inner = isRecord(next) ? next : {};
    node[part] = inner;
    node = inner;
  }
  node[itemAt(parts, parts.length - 1)] = value;
}
