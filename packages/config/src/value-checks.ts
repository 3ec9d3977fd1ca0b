import { isRecord } from '@cadence-detect/errors';
import { ConfigError } from './config-error.js';
import type { CadenceConfig } from './schema.js';
import { parseDuration, parseSize } from './units.js';
import { isForgeName, isOwnerPath } from './forge-target.js';

/** The longest delay a Node timer holds (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Every key in seconds that becomes a timer (setTimeout, a socket or server timeout). */
const TIMER_SECONDS_KEYS = [
  'webhook.read_timeout_seconds',
  'webhook.write_timeout_seconds',
  'limits.job_timeout_seconds',
  'limits.clone_timeout_seconds',
  'limits.shutdown_grace_seconds',
  'limits.fetch_timeout_seconds',
  'limits.strategy_timeout_seconds',
  'limits.stream_keepalive_seconds',
  'limits.scan_timeout_seconds',
] as const;

/** A scheduled scan fires at most this often. */
const MIN_SCHEDULE_MS = 60_000;

type Fail = (key: string, text: string) => never;

/** What the schema cannot say: units, timer ranges, a secret set to nothing. */
export function checkValues(config: CadenceConfig, file: string | null): void {
  const fail: Fail = (key, text) => {
    throw new ConfigError(
      `Invalid configuration in ${file ?? 'the configuration'}: ${key} ${text}`,
      key,
      file ?? undefined,
    );
  };
  if (config.assessment.suspicious > config.assessment.likely_ai_generated) {
    fail(
      'assessment.suspicious',
      `must not be above assessment.likely_ai_generated (${config.assessment.likely_ai_generated}), got ${config.assessment.suspicious}`,
    );
  }
  checkUnits(config, fail);
  checkTimers(config, fail);
  checkScans(config, fail);
  // An empty token would either turn authentication off or be a password of nothing: both silent.
  if (config.api.token === '') fail('api.token', 'is set but empty (unset it to run without a token, or give a token)');
}

function checkUnits(config: CadenceConfig, fail: Fail): void {
  if (Number.isNaN(parseSize(config.cache.max_size)))
    fail('cache.max_size', 'must be a size such as 500m, 1g or 65536');
  if (Number.isNaN(parseSize(config.cache.repositories_max_size)))
    fail('cache.repositories_max_size', 'must be a size such as 5g, 500m or 0 (no mirrors)');
}

/** Every duration a timer will hold fits one (about 24 days). */
function checkTimers(config: CadenceConfig, fail: Fail): void {
  const maxSeconds = Math.floor(MAX_TIMER_MS / 1000);
  for (const key of TIMER_SECONDS_KEYS) {
    if (Math.round(valueAt(config, key) * 1000) > MAX_TIMER_MS) {
      fail(
        key,
        `must be at most ${maxSeconds} seconds (about 24 days: the longest a timer holds), got ${valueAt(config, key)}`,
      );
    }
  }
}

function checkScans(config: CadenceConfig, fail: Fail): void {
  config.scans.schedule.forEach((entry, i) => {
    const every = parseDuration(entry.every);
    if (Number.isNaN(every) || every < MIN_SCHEDULE_MS || every > MAX_TIMER_MS)
      fail(
        `scans.schedule[${i}].every`,
        `must be a duration from 1m to 24 days such as 24h or 30m, got ${JSON.stringify(entry.every)}`,
      );
    const colon = entry.target.indexOf(':');
    if (colon < 0 || !isForgeName(entry.target.slice(0, colon)) || !isOwnerPath(entry.target.slice(colon + 1)))
      fail(
        `scans.schedule[${i}].target`,
        `must name a forge and an owner such as github:acme or gitlab:group/sub, got ${JSON.stringify(entry.target)}`,
      );
  });
  // An entry without its forge would match no request, silently.
  config.scans.allowed_owners.forEach((entry, i) => {
    const colon = entry.indexOf(':');
    if (colon < 0 || !isForgeName(entry.slice(0, colon)) || !/^\S+$/.test(entry.slice(colon + 1)))
      fail(
        `scans.allowed_owners[${i}]`,
        `must be forge:owner, where the owner may be a glob, such as github:acme or gitlab:platform/*, got ${JSON.stringify(entry)}`,
      );
  });
}

function valueAt(config: CadenceConfig, key: string): number {
  let node: unknown = config;
  for (const part of key.split('.')) node = isRecord(node) ? node[part] : undefined;
  return typeof node === 'number' ? node : Number.NaN;
}
