import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  humanHistory,
  startConnectionRecorder,
  startGitDaemon,
  startGitHttpServer,
  type ConnectionRecorder,
  type RecorderBehaviour,
} from '@cadence-detect/test-support';

/** Addresses the probes listen on inside the namespace: the ones a hostile URL aims at. */
export const LISTEN_ADDRESSES = ['127.0.0.1', '127.0.0.2', '::1'] as const;
/** A public-looking host: inside the namespace there is no route to it (ENETUNREACH), never a packet out. */
export const DECOY = '8.8.8.8';

export type ListenerKind = 'git' | 'http' | 'ssh';

export interface ProbeListeners {
  /** One port per kind, bound on every address of LISTEN_ADDRESSES. */
  readonly ports: Record<ListenerKind, number>;
  /** Connections seen so far, keyed `address|port`. */
  counts(): Map<string, number>;
  close(): Promise<void>;
}

/**
 * A repository served by a real git daemon and git http-backend, with recorders in front of them
 * (and a bare recorder standing in for sshd) on every listen address and the same port per kind,
 * so that any spelling that reaches any of them is seen, whichever address it reached.
 */
export async function startProbeListeners(root: string): Promise<ProbeListeners> {
  const served = path.join(root, 'served');
  const source = path.join(root, 'source');
  await mkdir(served, { recursive: true });
  await mkdir(source, { recursive: true });
  await createRepository(source, humanHistory(3));
  await exportRepository(served, 'acme/human.git', source);
  await exportRepository(served, 'x.git', source);
  const daemon = await startGitDaemon(served, '127.0.0.1');
  const http = await startGitHttpServer(served, '127.0.0.1');
  const behaviours: Record<ListenerKind, RecorderBehaviour> = {
    git: { forwardTo: { host: '127.0.0.1', port: daemon.port } },
    http: { forwardTo: { host: '127.0.0.1', port: http.port } },
    ssh: 'hang-up',
  };
  const recorders: ConnectionRecorder[] = [];
  const ports = {} as Record<ListenerKind, number>;
  for (const kind of ['git', 'http', 'ssh'] as const) {
    const first = await startConnectionRecorder(LISTEN_ADDRESSES[0], behaviours[kind]);
    recorders.push(first);
    ports[kind] = first.port;
    for (const address of LISTEN_ADDRESSES.slice(1))
      recorders.push(await startConnectionRecorder(address, behaviours[kind], first.port));
  }
  return {
    ports,
    counts: () => new Map(recorders.map((r) => [`${r.host}|${r.port}`, r.connections()])),
    close: async () => {
      await Promise.all(recorders.map((r) => r.close()));
      await daemon.close();
      await http.close();
    },
  };
}

/** The listeners whose count grew between two snapshots. */
export function reached(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].filter(([key, count]) => count > (before.get(key) ?? 0)).map(([key]) => key);
}
