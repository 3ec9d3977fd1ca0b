import type http from 'node:http';
import type net from 'node:net';

/**
 * `limits.max_connections_per_client`: one peer address holds at most `max` connections at once.
 * A connection past the cap is answered `503 overloaded` (the contract's body) and closed as soon as
 * that is written, before a request is read: without a cap, thousands of connections trickling
 * header bytes from one address would take every file descriptor of the process, `/health`'s too.
 * Counted on the socket's peer (no request has been read yet, so no X-Forwarded-For): peers for
 * which `exempt` is true (the trusted proxies, behind which every client is the proxy) are not counted.
 */
export function limitConnectionsPerClient(
  server: http.Server,
  max: number,
  exempt: (address: string) => boolean,
): { refused(socket: net.Socket): boolean } {
  const open = new Map<string, number>();
  const refusedSockets = new WeakSet<net.Socket>();
  const body = JSON.stringify({
    error: 'overloaded',
    message: `Too many connections from this address (at most ${max} at once); retry shortly`,
    retry_after: 5,
  });
  const answer = `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n${body}`;
  // Ahead of the HTTP server's own listener: a refused socket is closed before anything else is set up for it.
  server.prependListener('connection', (socket: net.Socket) => {
    const address = peerAddress(socket);
    if (address === '' || exempt(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      refusedSockets.add(socket);
      socket.on('error', () => undefined);
      // The file descriptor is given back at once (the answer is written first, a few hundred bytes).
      socket.end(answer);
      socket.destroySoon();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
  return { refused: (socket) => refusedSockets.has(socket) };
}

/** `::ffff:10.0.0.1` (a dual-stack socket's view of an IPv4 peer) is 10.0.0.1. */
function peerAddress(socket: net.Socket): string {
  const address = socket.remoteAddress ?? '';
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * What a client whose request could not be read is answered, in the contract's body: 408
 * `request_timeout` when its headers (or its whole request) took too long, 431 for headers over
 * Node's size limit, else 400; all but the timeout as `invalid_request`. Node's own answers (the
 * same statuses) carry no body.
 */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: net.Socket) => {
    if (
      error.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
    ) {
      socket.destroy();
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const body = JSON.stringify(
      timedOut
        ? { error: 'request_timeout', message: 'The request did not arrive in time' }
        : {
            error: 'invalid_request',
            message: 'The request could not be read as HTTP',
            details: { field: 'request', reason: error.code ?? 'malformed' },
          },
    );
    const status = timedOut
      ? '408 Request Timeout'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : '400 Bad Request';
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    socket.destroySoon();
  });
}
