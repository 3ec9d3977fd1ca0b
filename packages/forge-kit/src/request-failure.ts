import { itemAt } from '@cadence-detect/errors';

/**
 * Why a request to a forge (or any HTTP API) failed, in words a person acts on:
 * `DNS: no address for api.github.test`, `connection refused (127.0.0.1:9)`, `TLS: certificate has
 * expired (CERT_HAS_EXPIRED)`, `timed out`, `HTTP 403: Resource not accessible by integration`.
 * Reads the error and its `cause` chain, as fetch-based clients (Octokit, Gitbeaker) wrap the
 * network error in their own.
 * @since 1.5
 */
export function describeRequestFailure(error: unknown): string {
  const chain = causes(error);
  for (const e of chain) {
    const network = networkFailure(e);
    if (network) return network;
  }
  for (const e of chain) {
    const status = httpStatus(e);
    if (!status) continue;
    const message = shortMessage(e) || shortMessage(chain[0]);
    return `HTTP ${status}${message && !/^HTTP/i.test(message) ? `: ${message}` : ''}`;
  }
  return shortMessage(chain[0]) || 'failed';
}

type Failure = {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
  status?: unknown;
  response?: { status?: unknown };
  cause?: unknown;
};

function causes(error: unknown): Failure[] {
  const chain: Failure[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 6 && !chain.includes(current)) {
    chain.push(current);
    current = (current as Failure).cause;
  }
  return chain;
}

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET)_|HOSTNAME_MISMATCH)/;

function networkFailure(e: Failure): string | null {
  const code = typeof e.code === 'string' ? e.code : '';
  const where = typeof e.address === 'string' ? ` (${e.address}${typeof e.port === 'number' ? `:${e.port}` : ''})` : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return `DNS: no address for ${typeof e.hostname === 'string' ? e.hostname : 'the host'}`;
  if (code === 'ECONNREFUSED') return `connection refused${where}`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection reset${where}`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `unreachable${where}`;
  if (code === 'ETIMEDOUT' || (code.startsWith('UND_ERR_') && /TIMEOUT/.test(code)) || e.name === 'TimeoutError')
    return 'timed out';
  if (e.name === 'AbortError' || code === 'ABORT_ERR') return 'stopped (the job ended or the final status went ahead)';
  if (TLS_CODE.test(code)) return `TLS: ${shortMessage(e) || 'the certificate was refused'} (${code})`;
  return null;
}

function httpStatus(e: Failure): number | null {
  const status =
    typeof e.status === 'number' ? e.status : typeof e.response?.status === 'number' ? e.response.status : null;
  return status !== null && status >= 100 && status <= 599 ? status : null;
}

function shortMessage(e: Failure | undefined): string {
  const text = typeof e?.message === 'string' ? itemAt(e.message.split('\n'), 0).trim() : '';
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}
