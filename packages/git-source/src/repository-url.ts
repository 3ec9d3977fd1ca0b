import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CadenceError } from '@cadence/errors';

export type RepositoryLocator =
  | {
      readonly kind: 'remote';
      readonly url: string;
      readonly scheme: 'https' | 'http' | 'ssh' | 'git' | 'scp';
      readonly host: string;
      readonly port: number | null;
      readonly repo: string;
    }
  | { readonly kind: 'local'; readonly path: string; readonly repo: string };

const DEFAULT_PORTS = { https: 443, http: 80, ssh: 22, git: 9418 } as const;
/** `user@host:path`: git's scp-like syntax. The host must not look like an option or a drive letter. */
const SCP_LIKE = /^([A-Za-z0-9._~-]+)@([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(?!\/\/)(.+)$/;
/** `<transport>::<address>` runs a remote helper (ext:: runs any command): never. */
const REMOTE_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;

function refuse(input: string, reason: string): never {
  throw new CadenceError('ERR_INVALID_SOURCE', { message: `Refused repository ${JSON.stringify(truncate(input))}: ${reason}`, details: { field: 'url', reason } });
}

function truncate(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/**
 * Decisions §8: only https, http, ssh, git and scp-style URLs; never a remote helper (`ext::`),
 * never anything git could read as an option; local paths and file:// only when allowed.
 * This is the first wall; simple-git's own guards are the second.
 */
export function parseRepositoryUrl(input: string, options: { allowLocalPaths: boolean }): RepositoryLocator {
  if (typeof input !== 'string' || input.length === 0) refuse(String(input), 'empty');
  if (input.length > 2048) refuse(input, 'longer than 2048 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(input)) refuse(input, 'contains whitespace or control characters');
  if (input.startsWith('-')) refuse(input, 'starts with "-" (it would be read as an option)');
  if (REMOTE_HELPER.test(input)) refuse(input, 'remote helper transports (such as ext::) are not allowed');

  const scp = SCP_LIKE.exec(input);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    const [, user, host, repoPath] = scp as unknown as [string, string, string, string];
    if (user.startsWith('-') || host.startsWith('-')) refuse(input, 'a user or host that starts with "-"');
    return { kind: 'remote', url: input, scheme: 'scp', host: stripBrackets(host), port: null, repo: repoName(repoPath) };
  }

  const schemeMatch = /^([a-z][a-z0-9+.-]*):/i.exec(input);
  const scheme = schemeMatch?.[1]?.toLowerCase();
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
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    refuse(input, 'not a valid URL');
  }
  const host = stripBrackets(url.hostname);
  if (!host) refuse(input, 'no host');
  if (host.startsWith('-') || decodeURIComponent(url.username).startsWith('-')) refuse(input, 'a user or host that starts with "-"');
  const repoPath = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  if (!repoPath) refuse(input, 'no repository path');
  return {
    kind: 'remote',
    url: input,
    scheme,
    host,
    port: url.port ? Number(url.port) : DEFAULT_PORTS[scheme],
    repo: repoName(repoPath),
  };
}

function localPath(input: string, filePath: string, options: { allowLocalPaths: boolean }): RepositoryLocator {
  if (!options.allowLocalPaths) refuse(input, 'local paths are not allowed here (security.allow_local_paths)');
  const resolved = path.resolve(filePath);
  if (!existsSync(resolved)) {
    throw new CadenceError('ERR_GIT_CLONE_FAILED', { message: `No such path: ${resolved}` });
  }
  return { kind: 'local', path: resolved, repo: path.basename(resolved) };
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** `owner/repo` (or `group/sub/repo`) from a URL path, without `.git` and trailing slashes. */
function repoName(repoPath: string): string {
  const trimmed = repoPath.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^~[^/]*\//, '');
  return trimmed || repoPath;
}
