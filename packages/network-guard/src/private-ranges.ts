import { parseAddress, type ParsedAddress } from './address.js';
import { cidrContains, parseCidr, type Cidr } from './cidr.js';

/**
 * Every non-public range (docs/http-api.md, Targets), plus the documentation and benchmarking ranges that
 * no real server lives in. Ranges that embed an IPv4 address (mapped, NAT64, 6to4) are
 * judged by the embedded address instead, so ::ffff:127.0.0.1 is as private as 127.0.0.1.
 */
const PRIVATE_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/3',
].map(parseCidr);

const PRIVATE_V6 = [
  '::/128',
  '::1/128',
  '::/96',
  '100::/64',
  '2001::/32',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map(parseCidr);

const EMBEDDED_V4: ReadonlyArray<{ range: Cidr; offset: number }> = [
  { range: parseCidr('::ffff:0:0/96'), offset: 12 },
  // IPv4-translated (SIIT, RFC 2765): ::ffff:0:127.0.0.1 reaches 127.0.0.1 through a translator.
  { range: parseCidr('::ffff:0:0:0/96'), offset: 12 },
  { range: parseCidr('64:ff9b::/96'), offset: 12 },
  { range: parseCidr('64:ff9b:1::/48'), offset: 12 },
  { range: parseCidr('2002::/16'), offset: 2 },
];

/** The IPv4 address an IPv6 address carries (mapped, translated, NAT64, 6to4), if any. */
export function embeddedIPv4(address: ParsedAddress): ParsedAddress | null {
  if (address.family !== 6) return null;
  for (const { range, offset } of EMBEDDED_V4) {
    if (cidrContains(range, address)) return { family: 4, bytes: address.bytes.slice(offset, offset + 4) };
  }
  return null;
}

export function isPrivateParsed(address: ParsedAddress): boolean {
  const inner = embeddedIPv4(address);
  if (inner) return isPrivateParsed(inner);
  const ranges = address.family === 4 ? PRIVATE_V4 : PRIVATE_V6;
  return ranges.some((range) => cidrContains(range, address));
}

/** True for every private, loopback, link-local, reserved or otherwise non-public address; also for a non-address. */
export function isPrivateAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  return parsed === null ? true : isPrivateParsed(parsed);
}
