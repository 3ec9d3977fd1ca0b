import type { Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import { cidrContains, parseAddress, parseCidr } from '@cadence-detect/network-guard';

export interface AllowedHostOptions {
  /** `server.public_url`: its host is allowed. */
  readonly publicUrl: string | null;
  /** `api.allowed_hosts`: names (`cadence.internal`), or `.example.org` for the name and every subdomain. */
  readonly allowedHosts: readonly string[];
  readonly trustProxy: boolean;
  readonly trustedProxies: readonly string[];
  /** Paths (after server.base_path) that answer whatever the Host: the webhooks, /health. */
  readonly exempt: (path: string) => boolean;
}

/**
 * DNS rebinding: a page at http://evil.test:8001 whose name later resolves to 127.0.0.1 reaches a
 * server bound there as its own origin, so the cross-site checks see a same-origin request. With no
 * API token to stop it, the Host the browser sent must be one this server answers to: an IP literal,
 * a `localhost` name, the public URL's host or one of `api.allowed_hosts` (as webpack-dev-server and
 * Vite check). Others get 421 before any route runs. Behind a trusted proxy, the proxy's
 * X-Forwarded-Host (its last entry, the one the nearest proxy wrote) is the Host.
 */
export function requireAllowedHost(options: AllowedHostOptions): Middleware {
  const names = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of options.allowedHosts) {
    const name = entry.trim().toLowerCase().replace(/\.$/, '');
    if (name.startsWith('.')) suffixes.push(name);
    else if (name) names.add(name);
  }
  const publicHost = hostOfUrl(options.publicUrl);
  if (publicHost) names.add(publicHost);
  const proxies = options.trustedProxies.map(parseCidr);
  const fromTrustedProxy = (peer: string): boolean => {
    const parsed = parseAddress(peer.toLowerCase().startsWith('::ffff:') && peer.includes('.') ? peer.slice(7) : peer);
    return parsed !== null && proxies.some((cidr) => cidrContains(cidr, parsed));
  };
  const allowed = (hostname: string): boolean =>
    parseAddress(hostname) !== null ||
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    names.has(hostname) ||
    suffixes.some((suffix) => hostname === suffix.slice(1) || hostname.endsWith(suffix));
  return (ctx, next) => {
    if (options.exempt(ctx.path)) return next();
    const forwarded =
      options.trustProxy && fromTrustedProxy(ctx.req.socket.remoteAddress ?? '')
        ? ctx.get('x-forwarded-host').split(',').at(-1)?.trim()
        : '';
    const host = forwarded || ctx.get('host');
    // No Host at all (HTTP/1.0 from a script) is no browser's request.
    if (!host) return next();
    const hostname = hostnameOf(host);
    if (hostname === null || !allowed(hostname)) {
      throw new HttpError(
        421,
        'misdirected_request',
        `This server does not answer to the host ${JSON.stringify(host.slice(0, 100))}: without an API token it answers to IP addresses, localhost, the host of server.public_url and the names in api.allowed_hosts (add this name there, or set api.token)`,
      );
    }
    return next();
  };
}

/** `example.org:8000` -> `example.org`, `[::1]:8000` -> `::1`; null when it is not a host. */
function hostnameOf(host: string): string | null {
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    const name = url.hostname.toLowerCase().replace(/\.$/, '');
    return name.startsWith('[') ? name.slice(1, -1) : name;
  } catch {
    return null;
  }
}

function hostOfUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    return hostnameOf(new URL(url).host);
  } catch {
    return null;
  }
}
