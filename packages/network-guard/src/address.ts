import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An IP address as its family and its bytes (4 or 16), the form every range check works on. */
export interface ParsedAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

/**
 * Parses an IPv4 or IPv6 literal (brackets and zone ids allowed); null when it is not one.
 * Node's isIP gates first: ipaddr.js alone also accepts the legacy IPv4 spellings (`127.1`,
 * `0x7f.0.0.1`) that the URL rules refuse, and an address check must not be more lenient than they are.
 */
export function parseAddress(input: string): ParsedAddress | null {
  const text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const bare = text.split('%')[0] ?? '';
  const family = isIP(bare);
  if (family !== 4 && family !== 6) return null;
  return { family, bytes: Uint8Array.from(ipaddr.parse(bare).toByteArray()) };
}

export function formatIPv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}
