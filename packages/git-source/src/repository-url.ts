import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CadenceError, redactCredentials, itemAt } from '@cadence-detect/errors';

export type RemoteScheme = 'https' | 'http' | 'ssh' | 'git' | 'scp';

/** A remote repository as the parts that were checked; git only ever sees `url`, serialized from them. */
export interface RemoteRepository {
  readonly kind: 'remote';
  readonly scheme: RemoteScheme;
  /** User part: http(s) credentials or the ssh login; null when absent (always for git://). */
  readonly user: string | null;
  readonly password: string | null;
  /** Lower-case DNS name or IP literal, without brackets. */
  readonly host: string;
  /** The port git connects to (the scheme's default when the URL names none); null for scp-style. */
  readonly port: number | null;
  /** Whether the URL named the port (it is serialized only then). */
  readonly explicitPort: boolean;
  /** The path as written: `/owner/repo.git`, or for scp-style what follows the colon. */
  readonly path: string;
  /** The URL git receives, serialized from the parts above (credentials included). */
  readonly url: string;
  readonly repo: string;
}

export type RepositoryLocator =
  RemoteRepository | { readonly kind: 'local'; readonly path: string; readonly repo: string };

const DEFAULT_PORTS = { https: 443, http: 80, ssh: 22, git: 9418 } as const;

/*
 * docs/git-source.md, URL rules: a repository URL is parsed once, by this grammar alone, into parts; anything two
 * parsers could read differently is refused rather than interpreted. Node's URL parser, curl, git's
 * own connect.c and OpenSSH each have their quirks (backslashes as slashes, percent-decoding of the
 * user part, octal and hex IPv4, IDNA), so the accepted language is small enough that they all agree:
 * ASCII only, no percent-encoding, no backslash, one '@' at most, dotted-decimal IPv4 only.
 */
const URL_FORM = /^(https|http|ssh|git):\/\/([^/]*)(\/.*)$/i;
/** git's scp-like syntax: `user@host:path`, where no '/' comes before the ':'. */
const SCP_FORM = /^([^@/:]+)@([^/:[\]]+|\[[^/\]]+\]):(.*)$/;
/** Unreserved characters plus '+' and '=' (base64 tokens): nothing any parser decodes or splits on. */
const CREDENTIAL = /^[A-Za-z0-9._~+=-]+$/;
const SSH_USER = /^[A-Za-z0-9._][A-Za-z0-9._-]*$/;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const STRICT_IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** RFC 3986 path characters without '%' (decoding), '@' (read as a user part by some parsers) or '\\'. */
const PATH_CHARS = /^[A-Za-z0-9._~!$&'()*+,;=:/-]*$/;
/** `<transport>::<address>` runs a remote helper (ext:: runs any command): never. */
const REMOTE_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;

function refuse(input: string, reason: string): never {
  throw new CadenceError('ERR_INVALID_SOURCE', {
    message: `Refused repository ${JSON.stringify(redactCredentials(truncate(input)))}: ${reason}`,
    details: { field: 'url', reason },
  });
}

function truncate(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/**
 * docs/git-source.md: only https, http, ssh, git and scp-style URLs; never a remote helper (`ext::`),
 * never anything git could read as an option; local paths and file:// only when allowed.
 * This is the first wall; simple-git's own guards are the second.
 */
export function parseRepositoryUrl(input: string, options: { allowLocalPaths: boolean }): RepositoryLocator {
  // Called from JavaScript too: what is not a string is refused as empty, its text shown.
  const given: unknown = input;
  if (typeof given !== 'string' || given.length === 0) refuse(String(given), 'empty');
  if (input.length > 2048) refuse(input, 'longer than 2048 characters');
  // eslint-disable-next-line no-control-regex -- controls in a URL are what this refuses
  if (/[\s\x00-\x1f\x7f]/.test(input)) refuse(input, 'contains whitespace or control characters');
  if (input.startsWith('-')) refuse(input, 'starts with "-" (it would be read as an option)');
  if (REMOTE_HELPER.test(input)) refuse(input, 'remote helper transports (such as ext::) are not allowed');

  const schemeMatch = /^([a-z][a-z0-9+.-]*):/i.exec(input);
  const scheme = schemeMatch?.[1]?.toLowerCase();
  const isUrlForm = scheme !== undefined && input.slice(scheme.length + 1).startsWith('//');
  if (!isUrlForm && looksScpLike(input)) return parseScp(input);
  if (scheme === undefined || /^[a-z]$/i.test(scheme)) return localPath(input, input, options);
  if (scheme === 'file') {
    if (!options.allowLocalPaths) refuse(input, 'local paths are not allowed here (security.allow_local_paths)');
    let filePath: string;
    try {
      filePath = fileURLToPath(input);
    } catch {
      refuse(input, 'not a valid file:// URL');
    }
    return localPath(input, filePath, options);
  }
  if (scheme !== 'https' && scheme !== 'http' && scheme !== 'ssh' && scheme !== 'git') {
    refuse(input, `the scheme "${scheme}" is not allowed (https, http, ssh, git or user@host:path)`);
  }
  return parseUrlForm(input, scheme);
}

/** git reads `x:y` as scp-style when the ':' comes before any '/' (and it is not a drive letter). */
function looksScpLike(input: string): boolean {
  const colon = input.indexOf(':');
  const slash = input.indexOf('/');
  return colon > 1 && (slash < 0 || colon < slash) && input.includes('@');
}

function checkAscii(input: string): void {
  // Non-ASCII hosts are IDNA-mapped by some parsers and not by others; paths are encoded differently.
  if (/[^\x21-\x7e]/.test(input)) refuse(input, 'contains non-ASCII characters');
  if (input.includes('\\')) refuse(input, 'contains a backslash (some parsers read it as "/")');
  if (input.includes('%')) refuse(input, 'contains percent-encoding (git decodes it where other parsers do not)');
}

function parseUrlForm(input: string, scheme: 'https' | 'http' | 'ssh' | 'git'): RemoteRepository {
  checkAscii(input);
  if (/[?#]/.test(input)) refuse(input, 'a query or fragment is not part of a repository URL');
  const match = URL_FORM.exec(input);
  if (!match) refuse(input, 'no repository path');
  const [, , authority = '', rawPath = ''] = match;
  const at = authority.lastIndexOf('@');
  if (authority.indexOf('@') !== at) refuse(input, 'more than one "@" in the host part');
  const userInfo = at >= 0 ? authority.slice(0, at) : null;
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  const { user, password } = parseUserInfo(input, scheme, userInfo);
  const { host, port } = parseHostPort(input, hostPort);
  const repoPath = checkPath(input, rawPath);
  const parts = {
    scheme,
    user,
    password,
    host,
    port: port ?? DEFAULT_PORTS[scheme],
    explicitPort: port !== null,
    path: repoPath,
  };
  return { kind: 'remote', ...parts, url: serializeRemote(parts), repo: repoName(repoPath) };
}

function parseUserInfo(
  input: string,
  scheme: string,
  userInfo: string | null,
): { user: string | null; password: string | null } {
  if (userInfo === null) return { user: null, password: null };
  if (scheme === 'git') refuse(input, 'git:// URLs carry no user part');
  const colon = userInfo.indexOf(':');
  const user = colon >= 0 ? userInfo.slice(0, colon) : userInfo;
  const password = colon >= 0 ? userInfo.slice(colon + 1) : null;
  if (scheme === 'ssh') {
    if (password !== null) refuse(input, 'ssh URLs carry no password');
    if (!SSH_USER.test(user)) refuse(input, 'not a valid ssh user name');
    return { user, password: null };
  }
  if (!CREDENTIAL.test(user) || user.startsWith('-'))
    refuse(input, 'the user part may hold only letters, digits and . _ ~ + = -');
  if (password !== null && !CREDENTIAL.test(password))
    refuse(input, 'the password may hold only letters, digits and . _ ~ + = -');
  return { user, password };
}

function parseHostPort(input: string, hostPort: string): { host: string; port: number | null } {
  let host: string;
  let portText: string | null = null;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) refuse(input, 'an unclosed "[" in the host');
    host = hostPort.slice(1, close);
    const rest = hostPort.slice(close + 1);
    if (rest) {
      if (!rest.startsWith(':')) refuse(input, 'characters after the bracketed host');
      portText = rest.slice(1);
    }
    if (isIP(host) !== 6) refuse(input, 'not a valid IPv6 address in brackets (zone ids are not allowed)');
  } else {
    const colon = hostPort.indexOf(':');
    host = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
    if (colon >= 0) portText = hostPort.slice(colon + 1);
    checkHostName(input, host);
  }
  if (portText === null) return { host: host.toLowerCase(), port: null };
  if (!/^[1-9]\d{0,4}$/.test(portText) || Number(portText) > 65535) refuse(input, 'not a valid port');
  return { host: host.toLowerCase(), port: Number(portText) };
}

/** A DNS name of letters, digits and inner hyphens, or a dotted-decimal IPv4 address: nothing else. */
function checkHostName(input: string, host: string): void {
  if (!host) refuse(input, 'no host');
  if (host.startsWith('-')) refuse(input, 'a host that starts with "-"');
  if (host.length > 253) refuse(input, 'a host name longer than 253 characters');
  const lower = host.toLowerCase();
  const labels = lower.replace(/\.$/, '').split('.');
  if (!labels.every((label) => DNS_LABEL.test(label))) refuse(input, 'not a valid host name');
  // WHATWG reads a name whose last label is numeric as IPv4 (octal, hex, 32-bit integers); git does not.
  if (/^[0-9]/.test(itemAt(labels, labels.length - 1)) && !STRICT_IPV4.test(lower)) {
    refuse(input, 'an IPv4 address must be written as four decimal numbers without leading zeros');
  }
}

function checkPath(input: string, rawPath: string): string {
  if (!PATH_CHARS.test(rawPath))
    refuse(input, "the path holds characters outside letters, digits and - . _ ~ / : + = , ; ! $ & ' ( ) *");
  if (rawPath.replace(/^\/+/, '').length === 0) refuse(input, 'no repository path');
  if (rawPath.startsWith('//')) refuse(input, 'the path starts with "//"');
  return rawPath;
}

function parseScp(input: string): RemoteRepository {
  checkAscii(input);
  const match = SCP_FORM.exec(input);
  if (!match) refuse(input, 'not a valid user@host:path address');
  const [, user = '', rawHost = '', rawPath = ''] = match;
  if (!SSH_USER.test(user)) refuse(input, 'not a valid ssh user name');
  const bracketed = rawHost.startsWith('[');
  const host = bracketed ? rawHost.slice(1, -1) : rawHost;
  if (bracketed) {
    if (isIP(host) !== 6) refuse(input, 'not a valid IPv6 address in brackets');
  } else {
    checkHostName(input, host);
  }
  if (rawPath.startsWith('-')) refuse(input, 'a path that starts with "-"');
  const repoPath = checkPath(input, rawPath);
  const parts = {
    scheme: 'scp' as const,
    user,
    password: null,
    host: host.toLowerCase(),
    port: null,
    explicitPort: false,
    path: repoPath,
  };
  return { kind: 'remote', ...parts, url: serializeRemote(parts), repo: repoName(repoPath) };
}

/** The URL git receives: always built from checked parts, never the caller's string. */
export function serializeRemote(
  parts: Pick<RemoteRepository, 'scheme' | 'user' | 'password' | 'host' | 'port' | 'explicitPort' | 'path'>,
  connectTo: string = parts.host,
): string {
  const host = isIP(connectTo) === 6 ? `[${connectTo}]` : connectTo;
  if (parts.scheme === 'scp') return `${parts.user}@${host}:${parts.path}`;
  const userInfo = parts.user === null ? '' : `${parts.user}${parts.password === null ? '' : `:${parts.password}`}@`;
  const port = parts.explicitPort && parts.port !== null ? `:${parts.port}` : '';
  return `${parts.scheme}://${userInfo}${host}${port}${parts.path}`;
}

function localPath(input: string, filePath: string, options: { allowLocalPaths: boolean }): RepositoryLocator {
  if (!options.allowLocalPaths) refuse(input, 'local paths are not allowed here (security.allow_local_paths)');
  const resolved = path.resolve(filePath);
  if (!existsSync(resolved)) {
    throw new CadenceError('ERR_PATH_NOT_FOUND', {
      message: `No such path: ${resolved} (a local path names a folder that exists; a repository URL starts with https://, ssh:// or git@)`,
      details: { field: 'url', reason: 'no such path' },
    });
  }
  return { kind: 'local', path: resolved, repo: path.basename(resolved) };
}

/** `owner/repo` (or `group/sub/repo`) from a URL path, without `.git` and trailing slashes. */
function repoName(repoPath: string): string {
  const trimmed = repoPath
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/^~[^/]*\//, '');
  return trimmed || repoPath;
}
