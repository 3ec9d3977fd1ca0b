import { spawn, spawnSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';

export interface NamespaceRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Why a network namespace with only loopback cannot be made here, or null when it can. Tests that
 * try addresses off loopback (decoys beside a loopback listener) run only there: a wrong fix then
 * meets "network unreachable" instead of the real network.
 */
export function loopbackNamespaceUnavailable(withMounts = false): string | null {
  const flags = ['--net', '--map-root-user', ...(withMounts ? ['--mount'] : [])];
  const probe = spawnSync('unshare', [...flags, 'ip', 'link', 'set', 'lo', 'up'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.error) return `unshare could not run: ${probe.error.message}`;
  if (probe.status !== 0) return `unshare ${flags.join(' ')} failed: ${probe.stderr.trim() || `exit ${probe.status}`}`;
  return null;
}

export interface NamespaceOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /** A file mounted over the namespace's /etc/hosts (a mount namespace too): names for addresses without DNS. */
  readonly hostsFile?: string;
}

/**
 * Runs `command` in a new network namespace whose only interface is loopback (brought up first).
 * The command is an argument array: the fixed `sh -c` below only brings `lo` up and execs it.
 */
export function runInLoopbackNamespace(
  command: readonly string[],
  options: NamespaceOptions = {},
): Promise<NamespaceRun> {
  const withMounts = options.hostsFile !== undefined;
  const unavailable = loopbackNamespaceUnavailable(withMounts);
  if (unavailable)
    return Promise.reject(
      new Error(`No loopback-only network namespace (refusing to fall back to the real network): ${unavailable}`),
    );
  // Fixed scripts; the command and the hosts file travel as arguments ("$@", "$0"), never in the script text.
  const setup = withMounts
    ? [
        '--net',
        '--map-root-user',
        '--mount',
        'sh',
        '-c',
        'mount --bind "$0" /etc/hosts && ip link set lo up && exec "$@"',
        options.hostsFile,
      ]
    : ['--net', '--map-root-user', 'sh', '-c', 'ip link set lo up && exec "$@"', 'loopback-namespace'];
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', [...setup, ...command], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Throws unless this process sees loopback interfaces only: a probe's first line of defence. */
export function assertLoopbackOnly(): void {
  const others = Object.entries(networkInterfaces()).filter(([, addresses]) =>
    (addresses ?? []).some((a) => !a.internal),
  );
  if (others.length > 0)
    throw new Error(`not inside a loopback-only namespace: ${others.map(([name]) => name).join(', ')}`);
}
