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
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`not a CIDR prefix: ${JSON.stringify(text)}`);
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

export function cidrContains(cidr: Cidr, address: ParsedAddress): boolean {
  if (cidr.family !== address.family) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((cidr.bytes[i] ?? 0) & mask) !== ((address.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}
