import type { CadenceConfig } from '@cadence-detect/config';
import type { Logger } from '@cadence-detect/logger';
import { parseForgeTarget } from '@cadence-detect/organization';
import type { ServerBackends } from '../backends/server-backends.js';
import type { OrganizationScans } from './organization-scans.js';
import { scheduledScans, type ScanTimer } from './scan-schedule.js';
import { errorMessage } from '@cadence-detect/errors';

/**
 * `scans.schedule`: each target's scan started on its timer (docs/organization.md), only on a
 * server with an API token. A firing that cannot start (the server stopping) is logged and waits
 * for the next; a forge no plugin brings gives an organization job that fails with its code.
 */
export function startScanSchedule(
  config: CadenceConfig,
  backends: ServerBackends,
  scans: OrganizationScans,
  log: Logger,
  stop: AbortSignal,
): Promise<ScanTimer | null> {
  const entries = scheduledScans(config.scans.schedule);
  if (entries.length > 0 && config.api.token === null) {
    // Its results would be readable by anyone who reaches the server (every job route is open without a token).
    log.error('scans.schedule is ignored: scheduled organization scans need api.token', {
      targets: entries.map((e) => e.target),
    });
    // Nor does it touch the shared schedule: the servers configured with a token keep theirs.
    return Promise.resolve(null);
  }
  // On Redis the factory also removes schedulers left from an earlier configuration, even when none is left.
  if (entries.length === 0 && backends.kind !== 'redis') return Promise.resolve(null);
  const configured = new Set(entries.map((e) => e.target));
  const fire = async (target: string): Promise<void> => {
    const parsed = parseForgeTarget(target);
    if (!configured.has(target) || !parsed) {
      log.warn('a scheduled scan this server does not have configured was skipped', { target });
      return;
    }
    await scans
      .start(
        {
          kind: 'organization',
          url: `${parsed.forge}:${parsed.owner}`,
          forge: parsed.forge,
          owner: parsed.owner,
          include_forks: false,
          include_archived: false,
        },
        'schedule',
      )
      .catch((error: unknown) =>
        log.warn('scheduled scan did not start', {
          target,
          error: errorMessage(error),
        }),
      );
  };
  return backends.scanTimers(entries, fire, stop).then(
    (timer) => {
      if (entries.length > 0) log.info('scans.schedule set up', { targets: entries.map((e) => e.target) });
      return timer;
    },
    (error: unknown) => {
      if (stop.aborted) return null;
      log.error('scans.schedule could not be set up', { error: errorMessage(error) });
      return null;
    },
  );
}
