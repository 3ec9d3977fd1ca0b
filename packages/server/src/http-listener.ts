import http from 'node:http';
import type { CadenceConfig } from '@cadence-detect/config';
import { answerClientErrors, limitConnectionsPerClient } from './connection-limit.js';
import { trustedProxyPeer } from './middleware/client-address.js';

/** How long a request's headers may take to arrive (at most the request timeout). */
const HEADERS_TIMEOUT_MS = 10_000;

/** An http.Server for the listener, with the configuration's timeouts and per-client connection cap, listening. */
export function listenHttp(
  config: CadenceConfig,
  listener: http.RequestListener,
  port: number,
  host: string,
): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    // Node checks the headers and request timeouts every connectionsCheckingInterval (30 s by
    // default, which would stretch a 10 s headers timeout to 40 s): once a second here.
    const created = http.createServer({ connectionsCheckingInterval: 1000 }, (request, response) => {
      if (connections.refused(request.socket)) return void request.socket.destroy();
      listener(request, response);
    });
    const connections = limitConnectionsPerClient(
      created,
      config.limits.max_connections_per_client,
      trustedProxyPeer(config.api.trust_proxy, config.api.trusted_proxies),
    );
    answerClientErrors(created);
    // --timeout: how long a request may take to arrive; streams send keep-alives and clear their socket timeout.
    created.requestTimeout = config.webhook.read_timeout_seconds * 1000;
    // Headers come in one packet from any real client: a connection trickling them is closed (408) after 10 s.
    created.headersTimeout = Math.min(created.requestTimeout, HEADERS_TIMEOUT_MS);
    created.timeout = config.webhook.write_timeout_seconds * 1000;
    created.once('error', reject);
    created.listen(port, host, () => {
      created.off('error', reject);
      resolve(created);
    });
  });
}
