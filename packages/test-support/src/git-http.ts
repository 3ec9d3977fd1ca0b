import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer, type TestHttpServer } from './http-server.js';

export interface GitHttpServer extends TestHttpServer {
  /** `http://host:port/<name>` for a repository exported with `exportRepository`, with `host` as given. */
  repoUrl(name: string, host?: string): string;
  /** How many requests reached it (a refused redirect or a guard that stopped a clone leaves 0). */
  readonly requests: () => number;
  /** The Authorization headers requests carried, in order (what a clone sent besides its URL). */
  readonly authorizations: () => string[];
}

/**
 * Git's smart HTTP protocol, the one GitHub and GitLab serve: `git http-backend` run as a CGI
 * program behind a real HTTP server on a loopback address, serving the repositories under `baseDir`.
 */
export async function startGitHttpServer(baseDir: string, host = '127.0.0.1'): Promise<GitHttpServer> {
  let requests = 0;
  const authorizations: string[] = [];
  const server = await startHttpServer((request, response) => {
    requests++;
    if (request.headers.authorization) authorizations.push(request.headers.authorization);
    runBackend(baseDir, request, response);
  }, host);
  return {
    ...server,
    repoUrl: (name, as = host) => `http://${as}:${server.port}/${name}`,
    requests: () => requests,
    authorizations: () => [...authorizations],
  };
}

function runBackend(baseDir: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://backend');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: baseDir,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    REQUEST_METHOD: request.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_ADDR: request.socket.remoteAddress ?? '',
    // git sends large negotiation bodies gzipped, and asks for protocol v2 in a header.
    HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
    GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
  };
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  request.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
      else response.setHeader(name, value);
    }
    response.writeHead(status);
    headersSent = true;
    response.write(head.subarray(end + 4));
  });
  child.on('close', () => {
    if (!headersSent) response.writeHead(502);
    response.end();
  });
}
