import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer, type TestHttpServer } from './http-server.js';
import { eventually } from './eventually.js';

/** One request the fake forge received. */
export interface ForgeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Record<string, unknown> | null;
  readonly at: number;
}

/** A scripted answer: taken, in order, by the next requests matching `method` and `path`. */
export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

export interface FakeForge {
  readonly http: TestHttpServer;
  /** The API base URL to configure (`forges.github.api_url`, `forges.gitlab.api_url`). */
  readonly apiUrl: string;
  readonly requests: ForgeRequest[];
  /** The next requests matching these answer with `answers` first, then normally. */
  script(method: string, path: RegExp, answers: ScriptedAnswer[]): void;
  /** Resolves once `count` requests match (or rejects after `timeoutMs`). */
  waitFor(method: string, path: RegExp, count?: number, timeoutMs?: number): Promise<ForgeRequest[]>;
  close(): Promise<void>;
}

type Route = (request: ForgeRequest) => ScriptedAnswer | null;

/**
 * A forge API on 127.0.0.1 that speaks enough of the wire format for reporters: JSON bodies, the
 * status codes, rate-limit headers and error bodies the real one sends. It records every request.
 */
export async function startFakeForge(routes: Route[], prefix: string): Promise<FakeForge> {
  const requests: ForgeRequest[] = [];
  const scripts: { method: string; path: RegExp; answers: ScriptedAnswer[] }[] = [];
  const http = await startHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | null = null;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      const path = (req.url ?? '/').replace(prefix, '') || '/';
      const request: ForgeRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, at: Date.now() };
      requests.push(request);
      const script = scripts.find((s) => s.method === request.method && s.path.test(path) && s.answers.length > 0);
      const answer = script?.answers.shift() ??
        routes.reduce<ScriptedAnswer | null>((found, route) => found ?? route(request), null) ?? {
          status: 404,
          body: { message: 'Not Found' },
        };
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
        ...answer.headers,
      };
      res.writeHead(answer.status, headers);
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  const apiUrl = http.url(prefix || '/').replace(/\/$/, '');
  return {
    http,
    apiUrl,
    requests,
    script: (method, path, answers) => scripts.push({ method, path, answers: [...answers] }),
    waitFor: (method, path, count = 1, timeoutMs = 20_000) => {
      const matching = (): ForgeRequest[] => requests.filter((r) => r.method === method && path.test(r.path));
      return eventually(
        () => matching().length >= count && matching(),
        () =>
          `fake forge: ${count} ${method} ${path} (${matching().length} so far; saw ${requests.map((r) => `${r.method} ${r.path}`).join(', ')})`,
        { timeoutMs, everyMs: 20 },
      );
    },
    close: () => http.close(),
  };
}

let nextId = 1000;

/** GitHub's REST API: commit statuses, check runs, App installation tokens. */
export function startFakeGithub(): Promise<FakeForge> {
  return startFakeForge(
    [
      (r) =>
        r.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]{40}$/.test(r.path)
          ? {
              status: 201,
              body: { id: ++nextId, state: r.body?.state, context: r.body?.context, description: r.body?.description },
            }
          : null,
      (r) =>
        r.method === 'POST' && /^\/app\/installations\/\d+\/access_tokens$/.test(r.path)
          ? {
              status: 201,
              body: {
                token: `ghs_installation${++nextId}`,
                expires_at: new Date(Date.now() + 3600_000).toISOString(),
                permissions: { checks: 'write', statuses: 'write' },
                repository_selection: 'all',
              },
            }
          : null,
      (r) =>
        r.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(r.path)
          ? {
              status: 201,
              body: { id: ++nextId, head_sha: r.body?.head_sha, status: r.body?.status, name: r.body?.name },
            }
          : null,
      // No pull request is associated with a commit unless a test scripts one.
      (r) =>
        r.method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/commits\/[0-9a-f]{40}\/pulls/.test(r.path)
          ? { status: 200, body: [] }
          : null,
      (r) =>
        r.method === 'PATCH' && /^\/repos\/[^/]+\/[^/]+\/check-runs\/\d+$/.test(r.path)
          ? {
              status: 200,
              body: { id: Number(r.path.split('/').pop()), status: r.body?.status, conclusion: r.body?.conclusion },
            }
          : null,
    ],
    '',
  );
}

/**
 * GitLab's REST API (v4) under /api/v4: commit statuses, a commit's merge requests (one open request,
 * iid 3, for every commit), and that request's notes, kept in memory and paginated as GitLab does.
 */
export function startFakeGitlab(): Promise<FakeForge> {
  const notes: { id: number; body: string; system: boolean }[] = [{ id: 1, body: 'Looks good to me', system: false }];
  return startFakeForge(
    [
      (r) =>
        r.method === 'POST' && /^\/projects\/\d+\/statuses\/[0-9a-f]{40}$/.test(r.path.split('?')[0]!)
          ? {
              status: 201,
              body: {
                id: ++nextId,
                sha: r.path.split('/')[4]!.split('?')[0],
                status: r.body?.state ?? new URLSearchParams(r.path.split('?')[1]).get('state'),
                name: r.body?.name,
              },
            }
          : null,
      (r) =>
        r.method === 'GET' && /^\/projects\/\d+\/repository\/commits\/[0-9a-f]{40}\/merge_requests/.test(r.path)
          ? { status: 200, body: [{ id: 90, iid: 3, state: 'opened', title: 'A change' }] }
          : null,
      (r) => {
        if (r.method !== 'GET' || !/^\/projects\/\d+\/merge_requests\/3\/notes/.test(r.path)) return null;
        const query = new URLSearchParams(r.path.split('?')[1] ?? '');
        const perPage = Number(query.get('per_page') ?? 20);
        const page = Number(query.get('page') ?? 1);
        const slice = notes.slice((page - 1) * perPage, page * perPage);
        const pages = Math.max(1, Math.ceil(notes.length / perPage));
        return {
          status: 200,
          headers: {
            'x-total': String(notes.length),
            'x-total-pages': String(pages),
            'x-per-page': String(perPage),
            'x-page': String(page),
            'x-next-page': page < pages ? String(page + 1) : '',
          },
          body: slice,
        };
      },
      (r) => {
        if (r.method !== 'POST' || !/^\/projects\/\d+\/merge_requests\/3\/notes$/.test(r.path)) return null;
        const note = { id: ++nextId, body: String(r.body?.body ?? ''), system: false };
        notes.push(note);
        return { status: 201, body: note };
      },
      (r) => {
        const match = r.method === 'PUT' ? /^\/projects\/\d+\/merge_requests\/3\/notes\/(\d+)$/.exec(r.path) : null;
        const note = match ? notes.find((n) => n.id === Number(match[1])) : undefined;
        if (!match) return null;
        if (!note) return { status: 404, body: { message: '404 Not found' } };
        note.body = String(r.body?.body ?? note.body);
        return { status: 200, body: note };
      },
    ],
    '/api/v4',
  );
}

/** A fake Gitea (or Forgejo) that also knows which commit heads which open pull request. */
export interface FakeGitea extends FakeForge {
  /** `GET /repos/:owner/:repo/commits/:sha/pull` answers this request from now on. */
  pullRequest(sha: string, number: number): void;
}

/**
 * Gitea's API v1 as the plugin uses it: commit statuses, a commit's pull request, issue comments
 * (paged by `limit` and `page`), and an organization's repositories (`acme` has `repositories`
 * of them, 50 a page; any other organization is unknown and falls back to the user's).
 */
export async function startFakeGitea(repositories = 60): Promise<FakeGitea> {
  const comments: { id: number; body: string }[] = [{ id: 1, body: 'Looks good to me' }];
  const pulls = new Map<string, number>();
  const paged = <T>(r: ForgeRequest, items: T[]): T[] => {
    const query = new URLSearchParams(r.path.split('?')[1] ?? '');
    const limit = Number(query.get('limit') ?? 30);
    const page = Number(query.get('page') ?? 1);
    return items.slice((page - 1) * limit, page * limit);
  };
  const repos = (owner: string) =>
    Array.from({ length: repositories }, (_, i) => ({
      id: i + 1,
      full_name: `${owner}/repo-${i + 1}`,
      clone_url: `https://gitea.example.test/${owner}/repo-${i + 1}.git`,
      archived: i % 10 === 9,
      fork: i % 10 === 8,
      private: i % 2 === 0,
    }));
  const forge = await startFakeForge(
    [
      (r) =>
        r.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/statuses\/[0-9a-f]{40}$/.test(r.path)
          ? { status: 201, body: { id: ++nextId, state: r.body?.state, context: r.body?.context } }
          : null,
      (r) => {
        const match = r.method === 'GET' ? /^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]{40})\/pull$/.exec(r.path) : null;
        if (!match) return null;
        const number = pulls.get(match[1]!);
        return number === undefined
          ? { status: 404, body: { message: 'pull request does not exist' } }
          : { status: 200, body: { id: 5000 + number, number, state: 'open' } };
      },
      (r) =>
        r.method === 'GET' && /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments(\?|$)/.test(r.path)
          ? { status: 200, body: paged(r, comments) }
          : null,
      (r) => {
        if (r.method !== 'POST' || !/^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/.test(r.path)) return null;
        const comment = { id: ++nextId, body: String(r.body?.body ?? '') };
        comments.push(comment);
        return { status: 201, body: comment };
      },
      (r) => {
        const match = r.method === 'PATCH' ? /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(r.path) : null;
        if (!match) return null;
        const comment = comments.find((c) => c.id === Number(match[1]));
        if (!comment) return { status: 404, body: { message: 'comment does not exist' } };
        comment.body = String(r.body?.body ?? comment.body);
        return { status: 200, body: comment };
      },
      (r) => {
        const match = r.method === 'GET' ? /^\/(orgs|users)\/([^/?]+)\/repos(\?|$)/.exec(r.path) : null;
        if (!match) return null;
        if (match[1] === 'orgs' && match[2] !== 'acme') return { status: 404, body: { message: 'org does not exist' } };
        return { status: 200, body: paged(r, repos(match[2]!)) };
      },
    ],
    '/api/v1',
  );
  return { ...forge, pullRequest: (sha, number) => void pulls.set(sha, number) };
}

/** A fake Bitbucket Cloud that also knows which commit heads which open pull request. */
export interface FakeBitbucket extends FakeForge {
  /** `GET /repositories/:ws/:repo/commit/:sha/pullrequests` lists this open request from now on. */
  pullRequest(sha: string, id: number): void;
}

/**
 * Bitbucket Cloud's API 2.0 as the plugin uses it: build statuses, a commit's pull requests, a
 * request's comments (`pagelen` and `page`, with `next` as a full URL), and a workspace's
 * repositories (`acme` has `repositories` of them; any other workspace is unknown).
 */
export async function startFakeBitbucket(repositories = 120): Promise<FakeBitbucket> {
  const comments: { id: number; content: { raw: string } }[] = [{ id: 1, content: { raw: 'Looks good to me' } }];
  const pulls = new Map<string, number>();
  let apiUrl = '';
  const paged = <T>(r: ForgeRequest, items: T[]) => {
    const [path, search] = r.path.split('?') as [string, string | undefined];
    const query = new URLSearchParams(search ?? '');
    const size = Number(query.get('pagelen') ?? 10);
    const page = Number(query.get('page') ?? 1);
    const values = items.slice((page - 1) * size, page * size);
    const more = page * size < items.length;
    return {
      pagelen: size,
      page,
      values,
      ...(more ? { next: `${apiUrl}${path}?pagelen=${size}&page=${page + 1}` } : {}),
    };
  };
  const repos = (workspace: string) =>
    Array.from({ length: repositories }, (_, i) => ({
      uuid: `{${i + 1}}`,
      full_name: `${workspace}/repo-${i + 1}`,
      is_private: i % 2 === 0,
      links: { html: { href: `https://bitbucket.example.test/${workspace}/repo-${i + 1}` } },
      ...(i % 10 === 8 ? { parent: { full_name: `upstream/repo-${i + 1}` } } : {}),
    }));
  const forge = await startFakeForge(
    [
      (r) =>
        r.method === 'POST' && /^\/repositories\/[^/]+\/[^/]+\/commit\/[0-9a-f]{12,40}\/statuses\/build$/.test(r.path)
          ? { status: 201, body: { key: r.body?.key, state: r.body?.state, url: r.body?.url } }
          : null,
      (r) => {
        const match =
          r.method === 'GET'
            ? /^\/repositories\/[^/]+\/[^/]+\/commit\/([0-9a-f]{12,40})\/pullrequests(\?|$)/.exec(r.path)
            : null;
        if (!match) return null;
        const id = [...pulls].find(([sha]) => sha.startsWith(match[1]!) || match[1]!.startsWith(sha))?.[1];
        return { status: 200, body: paged(r, id === undefined ? [] : [{ id, state: 'OPEN' }]) };
      },
      (r) =>
        r.method === 'GET' && /^\/repositories\/[^/]+\/[^/]+\/pullrequests\/\d+\/comments(\?|$)/.test(r.path)
          ? { status: 200, body: paged(r, comments) }
          : null,
      (r) => {
        if (r.method !== 'POST' || !/^\/repositories\/[^/]+\/[^/]+\/pullrequests\/\d+\/comments$/.test(r.path))
          return null;
        const raw = (r.body?.content as { raw?: unknown } | undefined)?.raw;
        const comment = { id: ++nextId, content: { raw: String(raw ?? '') } };
        comments.push(comment);
        return { status: 201, body: comment };
      },
      (r) => {
        const match =
          r.method === 'PUT' ? /^\/repositories\/[^/]+\/[^/]+\/pullrequests\/\d+\/comments\/(\d+)$/.exec(r.path) : null;
        if (!match) return null;
        const comment = comments.find((c) => c.id === Number(match[1]));
        if (!comment) return { status: 404, body: { type: 'error', error: { message: 'comment not found' } } };
        comment.content.raw = String((r.body?.content as { raw?: unknown } | undefined)?.raw ?? comment.content.raw);
        return { status: 200, body: comment };
      },
      (r) => {
        const match = r.method === 'GET' ? /^\/repositories\/([^/?]+)(\?|$)/.exec(r.path) : null;
        if (!match) return null;
        if (match[1] !== 'acme')
          return { status: 404, body: { type: 'error', error: { message: 'workspace not found' } } };
        return { status: 200, body: paged(r, repos(match[1])) };
      },
    ],
    '/2.0',
  );
  apiUrl = forge.apiUrl;
  return { ...forge, pullRequest: (sha, id) => void pulls.set(sha, id) };
}
