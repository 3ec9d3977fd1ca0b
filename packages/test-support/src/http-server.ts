import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestHttpServer {
  readonly server: Server;
  readonly port: number;
  readonly host: string;
  /** `http://host:port` + path. */
  url(path?: string): string;
  close(): Promise<void>;
}

/** Starts a real HTTP server on a loopback address (127.0.0.2 works on Linux without set-up). */
export async function startHttpServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<TestHttpServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    host,
    url: (path = '/') => `http://${host}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
