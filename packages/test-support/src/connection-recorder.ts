import { connect, createServer, type Socket } from 'node:net';

export interface ConnectionRecorder {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** What a recorder does with a connection once counted. */
export type RecorderBehaviour = { readonly forwardTo: { host: string; port: number } } | 'hang-up' | 'stall';

/**
 * A TCP listener that counts every connection it accepts, then forwards the bytes to a real server
 * (a git daemon or http-backend behind it keeps working, so a clone that reaches it really
 * succeeds), hangs up at once (a stand-in for an sshd: the client fails fast) or stalls (a server
 * that never answers).
 */
export async function startConnectionRecorder(
  host: string,
  behaviour: RecorderBehaviour,
  port = 0,
): Promise<ConnectionRecorder> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (behaviour === 'stall') return;
    if (behaviour === 'hang-up') {
      socket.end();
      return;
    }
    const target = behaviour.forwardTo;
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as { port: number }).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
