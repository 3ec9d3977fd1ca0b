import { EventSource } from 'eventsource';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  burstHistory,
  createRepository,
  exportRepository,
  humanHistory,
  makeTempDir,
  startCadenceServer,
  startGitDaemon,
  startGitHttpServer,
  type FixtureRepository,
  type GitDaemon,
  type GitHttpServer,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';

export const SECRET = 'test-webhook-secret-0123456789';

export interface GitFixtures {
  readonly daemon: GitDaemon;
  /** The same repositories over smart HTTP (git http-backend), as GitHub and GitLab serve them. */
  readonly http: GitHttpServer;
  readonly human: FixtureRepository;
  readonly served: string;
  /** Hashes of the served `acme/human.git` in commit order. */
  readonly hashes: string[];
  close(): Promise<void>;
}

/** What `webhookServer` sets up before a describe's tests: filled in by its `before` hook. */
export interface WebhookServer {
  work: TempDir;
  git: GitFixtures;
  server: ServerProcess;
}

/** Mocha hooks for a describe about webhook intake: the served repositories and a server that may clone them; all stopped after. */
export function webhookServer(name: string): WebhookServer {
  const fixture = {} as WebhookServer;
  before(async () => {
    fixture.work = await makeTempDir(`cadence-${name}-`);
    fixture.git = await serveRepositories(fixture.work.path);
    fixture.server = await startCadenceServer({
      cwd: fixture.work.path,
      config: { security: { allowed_networks: ['127.0.0.0/8'] } },
    });
  });
  after(async () => {
    await fixture.server?.stop();
    await fixture.git?.close();
    await fixture.work?.remove();
  });
  return fixture;
}

/** What `forgeServer` sets up before a describe's tests: filled in by its `before` hook. */
export interface ForgeServer<F> {
  work: TempDir;
  git: GitFixtures;
  forge: F;
  server: ServerProcess;
}

/**
 * Mocha hooks for a describe about one forge's reporting: the served repositories, a fake forge
 * on 127.0.0.1, and a server that reports to it (its `forges.<name>` section, a token in the
 * environment, a public URL unless `publicUrl: null`); all stopped after.
 */
export function forgeServer<F extends { readonly apiUrl: string; close(): Promise<void> }>(
  name: string,
  startForge: () => Promise<F>,
  settings: (forge: F) => {
    readonly forges: Record<string, unknown>;
    readonly env: Record<string, string>;
    readonly publicUrl?: string | null;
  },
): ForgeServer<F> {
  const fixture = {} as ForgeServer<F>;
  before(async () => {
    fixture.work = await makeTempDir(`cadence-forge-${name}-`);
    fixture.git = await serveRepositories(fixture.work.path);
    fixture.forge = await startForge();
    const { forges, env, publicUrl = 'https://cadence.example.test' } = settings(fixture.forge);
    fixture.server = await startCadenceServer({
      cwd: fixture.work.path,
      config: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        forges,
        ...(publicUrl === null ? {} : { server: { public_url: publicUrl } }),
      },
      env,
    });
  });
  after(async () => {
    await fixture.server?.stop();
    await fixture.forge?.close();
    await fixture.git?.close();
    await fixture.work?.remove();
  });
  return fixture;
}

/** A human history and a burst history served over git:// and http:// on `host`. */
export async function serveRepositories(root: string, host = '127.0.0.1'): Promise<GitFixtures> {
  const served = path.join(root, `served-${host}`);
  await mkdir(served, { recursive: true });
  const humanDir = path.join(root, `human-${host}`);
  await mkdir(humanDir);
  const human = await createRepository(humanDir, humanHistory(10));
  await exportRepository(served, 'acme/human.git', humanDir);
  const burstDir = path.join(root, `burst-${host}`);
  await mkdir(burstDir);
  await createRepository(burstDir, burstHistory(6));
  await exportRepository(served, 'acme/burst.git', burstDir);
  const daemon = await startGitDaemon(served, host);
  const http = await startGitHttpServer(served, host);
  return {
    daemon,
    http,
    human,
    served,
    hashes: [...human.hashes],
    close: async () => {
      await daemon.close();
      await http.close();
    },
  };
}

interface PushExample {
  ref: string;
  before: string;
  after: string;
  repository: { clone_url: string; url: string; full_name: string };
  [key: string]: unknown;
}

/** One of GitHub's own documented push payloads, pointed at our repository and range. */
export function githubPushPayload(
  cloneUrl: string,
  before: string,
  after: string,
  ref = 'refs/heads/main',
): PushExample {
  const require = createRequire(import.meta.url);
  const events = require('@octokit/webhooks-examples') as { name: string; examples: PushExample[] }[];
  const example = structuredClone(events.find((e) => e.name === 'push')!.examples[0]!);
  example.ref = ref;
  example.before = before;
  example.after = after;
  example.repository.clone_url = cloneUrl;
  example.repository.full_name = 'acme/human';
  return example;
}

/** A GitLab push hook body (GitLab's documented shape, trimmed to what matters). */
export function gitlabPushPayload(
  cloneUrl: string,
  before: string,
  after: string,
  ref = 'refs/heads/main',
): Record<string, unknown> {
  return {
    object_kind: 'push',
    event_name: 'push',
    before,
    after,
    ref,
    checkout_sha: after,
    user_name: 'Ada',
    project: {
      id: 15,
      name: 'human',
      path_with_namespace: 'acme/human',
      web_url: 'http://127.0.0.1/acme/human',
      git_http_url: cloneUrl,
    },
    repository: { name: 'human', git_http_url: cloneUrl },
    commits: [],
    total_commits_count: 0,
  };
}

/**
 * Reads a stream to its end with a real SSE client (GET), or posts a body (POST). `onEvent` sees each
 * event as it arrives, for a test that acts once the stream is under way.
 */
export async function readStream(
  url: string,
  body?: unknown,
  onEvent: (event: Record<string, unknown>) => void = () => undefined,
): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = [];
  await new Promise<void>((resolve, reject) => {
    const source = new EventSource(
      url,
      body === undefined
        ? {}
        : {
            fetch: (input, init) =>
              fetch(input, {
                ...init,
                method: 'POST',
                body: JSON.stringify(body),
                headers: { ...(init?.headers as Record<string, string>), 'content-type': 'application/json' },
              }),
          },
    );
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`stream did not end: ${JSON.stringify(events)}`));
    }, 30_000);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as Record<string, unknown>;
      events.push(event);
      onEvent(event);
      if (event.event === 'complete' || event.event === 'error') {
        clearTimeout(timer);
        source.close();
        resolve();
      }
    };
    source.onerror = () => {
      if (events.length > 0 && (events.at(-1)!.event === 'complete' || events.at(-1)!.event === 'error')) return;
    };
  });
  return events;
}

/** The server's job feed (GET /events) as a test reads it: open once the server answered, done at the awaited job. */
export interface FeedReading {
  readonly opened: Promise<void>;
  readonly done: Promise<Record<string, unknown>[]>;
}

/** Reads the server's job feed (GET /events) until a `job` event satisfies `until`; `done` gives the events seen. */
export function readFeed(
  url: string,
  until: (job: Record<string, unknown>) => boolean,
  headers: Record<string, string> = {},
): FeedReading {
  const jobs: Record<string, unknown>[] = [];
  let opened!: () => void;
  const openedPromise = new Promise<void>((resolve) => (opened = resolve));
  const done = new Promise<Record<string, unknown>[]>((resolve, reject) => {
    const source = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
    });
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`the feed never showed the job: ${JSON.stringify(jobs)}`));
    }, 30_000);
    source.onopen = () => opened();
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as { event: string; job: Record<string, unknown> };
      if (event.event !== 'job') return;
      jobs.push(event.job);
      if (until(event.job)) {
        clearTimeout(timer);
        source.close();
        resolve(jobs);
      }
    };
  });
  return { opened: openedPromise, done };
}

/**
 * Opens the job feed at `feedUrl`, waits for the server to answer it (the feed takes its baseline as
 * it subscribes, before answering), starts a job with `submit`, and returns the feed's events for
 * that job up to its completion.
 */
export async function feedOfJob(feedUrl: string, submit: () => Promise<string>): Promise<Record<string, unknown>[]> {
  let id = '';
  const feed = readFeed(feedUrl, (job) => job.id === id && job.status === 'completed');
  await feed.opened;
  id = await submit();
  return (await feed.done).filter((job) => job.id === id);
}
