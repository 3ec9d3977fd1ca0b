import { itemAt } from '@cadence-detect/errors';
import type { Middleware } from 'koa';
import { parseAddress, parseCidr, cidrContains, type Cidr } from '@cadence-detect/network-guard';

/**
 * The client address (docs/deploy.md, Behind a reverse proxy) is the socket's; behind trusted proxies it is the rightmost
 * X-Forwarded-For entry that is not itself a trusted proxy. Each proxy appends the address it saw,
 * so entries left of the last untrusted one were written by the client and prove nothing (the
 * leftmost is whatever the client sent). Sets `ctx.request.ip`, which everything else reads.
 */
export function clientAddress(trustProxy: boolean, trustedProxies: readonly string[]): Middleware {
  const trusted = trustedProxies.map(parseCidr);
  return (ctx, next) => {
    const peer = normalize(ctx.req.socket.remoteAddress ?? '');
    ctx.request.ip = trustProxy ? rightmostUntrusted(peer, ctx.get('x-forwarded-for'), trusted) : peer;
    return next();
  };
}

function rightmostUntrusted(peer: string, forwardedFor: string, trusted: readonly Cidr[]): string {
  if (!isTrusted(peer, trusted) || !forwardedFor) return peer;
  const hops = forwardedFor
    .split(',')
    .map((entry) => normalize(entry.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = itemAt(hops, i);
    // Garbage in the header cannot be a client: the proxy that appended after it is the client.
    if (!parseAddress(hop)) return i === hops.length - 1 ? peer : itemAt(hops, i + 1);
    if (!isTrusted(hop, trusted)) return hop;
  }
  return hops[0] ?? peer;
}

/**
 * Whether a socket's peer is a trusted proxy (with `api.trust_proxy` only): limits counted per
 * connection exempt it, since behind a proxy every client's connections are the proxy's.
 */
export function trustedProxyPeer(trustProxy: boolean, trustedProxies: readonly string[]): (address: string) => boolean {
  if (!trustProxy) return () => false;
  const trusted = trustedProxies.map(parseCidr);
  return (address) => isTrusted(normalize(address), trusted);
}

function isTrusted(address: string, trusted: readonly Cidr[]): boolean {
  const parsed = parseAddress(address);
  return parsed !== null && trusted.some((cidr) => cidrContains(cidr, parsed));
}

/** `::ffff:10.0.0.1` (a dual-stack socket's view of an IPv4 peer) is 10.0.0.1. */
function normalize(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
