import { lookup } from 'node:dns/promises';
import { abortError, CadenceError, itemAt } from '@cadence-detect/errors';
import { parseAddress, formatIPv4, type ParsedAddress } from './address.js';
import { cidrContains, parseCidr } from './cidr.js';
import { embeddedIPv4, isPrivateParsed } from './private-ranges.js';
import type { CheckedAddress, NetworkPolicy } from './policy.js';

function allowedByList(address: ParsedAddress, allowedNetworks: readonly string[]): boolean {
  const candidates = [address, embeddedIPv4(address)].filter((a): a is ParsedAddress => a !== null);
  return allowedNetworks.some((text) => {
    const cidr = parseCidr(text);
    return candidates.some((candidate) => cidrContains(cidr, candidate));
  });
}

/** Whether a connection to `ip` is permitted by the policy. Public addresses always are. */
export function isAddressAllowed(ip: string, policy: NetworkPolicy): boolean {
  const parsed = parseAddress(ip);
  if (!parsed) return false;
  if (!isPrivateParsed(parsed)) return true;
  return policy.allowPrivateNetworks || allowedByList(parsed, policy.allowedNetworks);
}

function refuse(host: string, address: string): CadenceError {
  return new CadenceError('ERR_PRIVATE_ADDRESS', {
    message: `Refused to connect to ${host} (${address}): private, loopback and link-local addresses are not allowed`,
    details: { host, address },
  });
}

/**
 * Resolves `host` and checks every address it resolves to against the policy (a name with one private
 * address among public ones is refused: the resolver may hand out either). Returns the address to connect
 * to: callers must connect to exactly that address, so a second lookup cannot rebind the name.
 * With a null policy (the CLI) nothing is refused.
 */
export async function resolveAndCheck(
  host: string,
  policy: NetworkPolicy | null,
  signal?: AbortSignal,
): Promise<CheckedAddress> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literal = parseAddress(bare);
  if (literal) {
    const address = literal.family === 4 ? formatIPv4(literal.bytes) : itemAt(bare.split('%'), 0);
    if (policy && !isAddressAllowed(address, policy)) throw refuse(host, address);
    return { host: bare, address, family: literal.family };
  }
  if (signal?.aborted) throw abortError(signal);
  let results: Array<{ address: string; family: number }>;
  try {
    const pending = lookup(bare, { all: true, verbatim: true });
    results = signal
      ? await Promise.race([
          pending,
          new Promise<never>((_, reject) =>
            signal.addEventListener('abort', () => reject(abortError(signal)), { once: true }),
          ),
        ])
      : await pending;
  } catch (error) {
    if (error instanceof CadenceError) throw error;
    throw new CadenceError('ERR_DNS_LOOKUP_FAILED', {
      message: `Could not resolve ${bare}: check the host name in the address`,
      cause: error,
      details: { host: bare },
    });
  }
  if (results.length === 0)
    throw new CadenceError('ERR_DNS_LOOKUP_FAILED', { message: `Could not resolve host ${bare}` });
  if (policy) {
    for (const result of results) {
      if (!isAddressAllowed(result.address, policy)) throw refuse(bare, result.address);
    }
  }
  const first = itemAt(results, 0);
  return { host: bare, address: first.address, family: first.family === 6 ? 6 : 4 };
}
