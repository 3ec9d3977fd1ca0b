import { readFile, stat } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Transform } from 'node:stream';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import {
  abortError,
  CadenceError,
  type OperationalCode,
  errorCode,
  errorMessage,
  itemAt,
} from '@cadence-detect/errors';
import { resolveAndCheck, type NetworkPolicy } from '@cadence-detect/network-guard';
import { decode, detectCharset } from './charset.js';

export interface FetchOptions {
  /** null: no guard (the CLI). */
  readonly policy: NetworkPolicy | null;
  readonly maxBytes: number;
  /** The whole fetch, redirects included. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly userAgent?: string;
}

export interface FetchedPage {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number;
  readonly contentType: string;
  readonly charset: string;
  readonly bytes: number;
  readonly body: string;
}

/** docs/website-analysis.md: at most 5 redirects; the sixth is ERR_TOO_MANY_REDIRECTS. */
export const MAX_REDIRECTS = 5;
const ACCEPTED_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
export const DEFAULT_USER_AGENT = 'Cadence/0.1 (+https://github.com/cadence/cadence; AI-content analysis)';
const TLS_ERRORS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|SSL|EPROTO/;

function fail(code: OperationalCode, message: string, cause?: unknown): CadenceError {
  return new CadenceError(code, { message, cause });
}

/**
 * GETs a page safely: every hop's host is resolved, checked by the network guard and connected to
 * at the address that was checked (no DNS-rebinding gap); the byte cap counts decoded bytes as
 * they stream; only HTML and plain text are read.
 */
export async function fetchPage(url: URL, options: FetchOptions): Promise<FetchedPage> {
  if (url.protocol === 'file:') return readLocalPage(url, options.maxBytes);
  const stop = new AbortController();
  const timer = setTimeout(
    () =>
      stop.abort(
        fail('ERR_FETCH_TIMEOUT', `Fetching ${url.origin} took longer than ${Math.round(options.timeoutMs / 1000)} s`),
      ),
    options.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  try {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      const response = await requestOnce(current, options, signal);
      const location = response.headers.location;
      if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.resume();
        if (redirects >= MAX_REDIRECTS)
          throw fail('ERR_TOO_MANY_REDIRECTS', `${url.toString()} redirected more than ${MAX_REDIRECTS} times`);
        const next = new URL(location, current);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw fail('ERR_INVALID_SOURCE', `Refused a redirect to the scheme ${next.protocol}`);
        }
        current = next;
        continue;
      }
      return await readBody(url, current, response, options.maxBytes, signal);
    }
  } catch (error) {
    throw mapError(error, signal);
  } finally {
    clearTimeout(timer);
  }
}

async function requestOnce(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  let lookup: LookupFunction | undefined;
  if (options.policy) {
    const checked = await resolveAndCheck(url.hostname.replace(/^\[|\]$/g, ''), options.policy, signal);
    // Connect to the address that was checked, whatever the name resolves to a moment later. Answered
    // on a later turn, as dns.lookup does: answered at once, a connect that fails synchronously
    // (ENETUNREACH, EPERM) emits the socket's 'error' before http has attached its listener, and an
    // unhandled 'error' ends the process.
    lookup = ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      setImmediate(() => {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Node may call a lookup without options
        if (lookupOptions?.all) callback(null, [{ address: checked.address, family: checked.family }]);
        else callback(null, checked.address, checked.family);
      });
    }) as unknown as LookupFunction;
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        signal,
        ...(lookup ? { lookup } : {}),
        headers: {
          'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    // Attached before anything can emit: request errors (socket errors included, once http has taken
    // the socket on the next tick) always arrive on a later turn.
    request.on('error', reject);
    request.end();
  });
}

async function readBody(
  original: URL,
  final: URL,
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
): Promise<FetchedPage> {
  const status = response.statusCode ?? 0;
  if (status >= 400) {
    response.resume();
    throw fail('ERR_HTTP_STATUS', `${final.toString()} answered ${status}`);
  }
  const contentType = response.headers['content-type'] ?? 'text/html';
  const mediaType = itemAt(contentType.split(';'), 0).trim().toLowerCase();
  if (!ACCEPTED_TYPES.has(mediaType)) {
    response.resume();
    throw fail(
      'ERR_UNSUPPORTED_CONTENT_TYPE',
      `${final.toString()} is ${mediaType || 'of no type'}, not HTML or plain text`,
    );
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw fail('ERR_PAGE_TOO_LARGE', `${final.toString()} is ${declared} bytes, above the ${maxBytes}-byte cap`);
  }
  const body = await collect(response, maxBytes, signal, final);
  const charset = detectCharset(body, contentType);
  return {
    url: original.toString(),
    finalUrl: final.toString(),
    status,
    contentType: mediaType,
    charset,
    bytes: body.length,
    body: decode(body, charset),
  };
}

function decoderFor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** Reads the (decoded) body, stopping as soon as it passes the cap: a zip bomb costs `maxBytes` at most. */
function collect(response: IncomingMessage, maxBytes: number, signal: AbortSignal, url: URL): Promise<Buffer> {
  const decoder = decoderFor(response.headers['content-encoding']);
  const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const abort = (error: unknown): void => {
      response.destroy();
      decoder?.destroy();
      // mapError reads the signal first: an abort's reason is never read as a network error.
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    signal.addEventListener('abort', () => abort(signal.reason), { once: true });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        abort(fail('ERR_PAGE_TOO_LARGE', `${url.toString()} passed the ${maxBytes}-byte cap`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (error) => abort(error));
    response.on('error', (error) => abort(error));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

async function readLocalPage(url: URL, maxBytes: number): Promise<FetchedPage> {
  const file = fileURLToPath(url);
  const info = await stat(file).catch((error: unknown) => {
    throw fail('ERR_CONNECTION_REFUSED', `Cannot read ${file}`, error);
  });
  if (info.size > maxBytes)
    throw fail('ERR_PAGE_TOO_LARGE', `${file} is ${info.size} bytes, above the ${maxBytes}-byte cap`);
  const body = await readFile(file);
  const contentType = /\.(txt|md)$/i.test(file) ? 'text/plain' : 'text/html';
  const charset = detectCharset(body, contentType);
  return {
    url: url.toString(),
    finalUrl: url.toString(),
    status: 200,
    contentType,
    charset,
    bytes: body.length,
    body: decode(body, charset),
  };
}

function mapError(error: unknown, signal: AbortSignal): CadenceError {
  if (signal.aborted) return abortError(signal);
  if (error instanceof CadenceError) return error;
  const code = errorCode(error) ?? '';
  const message = errorMessage(error);
  if (code === 'ECONNREFUSED') return fail('ERR_CONNECTION_REFUSED', `Cannot connect: ${message}`, error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const host =
      error instanceof Error && 'hostname' in error && typeof error.hostname === 'string' ? error.hostname : 'the host';
    return fail(
      'ERR_DNS_LOOKUP_FAILED',
      `Could not resolve ${host}: check the host name in the address (${code === 'EAI_AGAIN' ? 'the name server did not answer' : 'no such host'})`,
      error,
    );
  }
  if (TLS_ERRORS.test(code))
    return fail('ERR_TLS_CERTIFICATE_INVALID', `TLS certificate verification failed: ${message}`, error);
  if (code === 'ETIMEDOUT') return fail('ERR_FETCH_TIMEOUT', message, error);
  return fail('ERR_CONNECTION_REFUSED', `The connection failed: ${message}`, error);
}
