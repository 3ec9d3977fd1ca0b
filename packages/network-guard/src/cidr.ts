import ipaddr from 'ipaddr.js';
import { parseAddress, type ParsedAddress } from './address.js';

export interface Cidr {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly prefix: number;
}

/** Parses `10.0.0.0/8`, `fe80::/10` or a bare address (a /32 or /128). Throws on anything else. */
export function parseCidr(text: string): Cidr {
  const [addressText, prefixText, extra] = text.trim().split('/');
  const address = addressText === undefined ? null : parseAddress(addressText);
  if (!address || extra !== undefined) throw new Error(`not a CIDR: ${JSON.stringify(text)}`);
  const max = address.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max)
    throw new Error(`not a CIDR prefix: ${JSON.stringify(text)}`);
  return { family: address.family, bytes: address.bytes, prefix };
}

export function isValidCidr(text: string): boolean {
  try {
    parseCidr(text);
    return true;
  } catch {
    return false;
  }
}

function toIpaddr(address: ParsedAddress): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.fromByteArray(Array.from(address.bytes));
}

/** Whether `address` lies in `cidr`; families never match across (mapped forms are unwrapped by the caller). */
export function cidrContains(cidr: Cidr, address: ParsedAddress): boolean {
  if (cidr.family !== address.family) return false;
  const range = toIpaddr(cidr);
  const candidate = toIpaddr(address);
  return candidate.kind() === 'ipv4'
    ? (candidate as ipaddr.IPv4).match(range, cidr.prefix)
    : (candidate as ipaddr.IPv6).match(range, cidr.prefix);
}
