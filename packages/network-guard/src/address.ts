import { isIP } from 'node:net';

/** An IP address as its family and its bytes (4 or 16), the form every range check works on. */
export interface ParsedAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

function parseIPv6(text: string): Uint8Array | null {
  let source = text;
  const zone = source.indexOf('%');
  if (zone !== -1) source = source.slice(0, zone);
  // A trailing dotted quad (::ffff:127.0.0.1) is two groups.
  const lastColon = source.lastIndexOf(':');
  const tail = source.slice(lastColon + 1);
  let tailBytes: Uint8Array | null = null;
  if (tail.includes('.')) {
    tailBytes = parseIPv4(tail);
    if (!tailBytes) return null;
    source = source.slice(0, lastColon + 1) + '0:0';
  }
  const halves = source.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    const group = groups[i]!;
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  }
  if (tailBytes) bytes.set(tailBytes, 12);
  return bytes;
}

/** Parses an IPv4 or IPv6 literal (brackets and zone ids allowed); null when it is not one. */
export function parseAddress(input: string): ParsedAddress | null {
  const text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const family = isIP(text.split('%')[0] ?? '');
  if (family === 4) {
    const bytes = parseIPv4(text);
    return bytes ? { family: 4, bytes } : null;
  }
  if (family === 6) {
    const bytes = parseIPv6(text);
    return bytes ? { family: 6, bytes } : null;
  }
  return null;
}

export function formatIPv4(bytes: Uint8Array): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}
