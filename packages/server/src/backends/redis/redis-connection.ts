import { Redis, type RedisOptions } from 'ioredis';
import { HttpError } from '@cadence-detect/errors';

/**
 * How every Redis connection of the server is made. Commands fail at once while Redis is away (no
 * offline queue, one retry): a request then answers 503 `unavailable` rather than hanging, and
 * nothing is accepted that could not be recorded. The connection itself keeps reconnecting.
 */
export function commandConnection(url: string, name: string): Redis {
  // No auto-pipelining: it would send the commands concurrent requests issue in the same tick in one
  // write, but wraps each in a pipeline of its own first. Measured in turns (two intake servers on one
  // Redis under the webhook load benchmark, ten pairs of 4 s windows each way), the CPU per webhook of
  // the server and Redis together was about 5% lower without it.
  return new Redis(url, { ...COMMON, connectionName: name, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
}

/** For blocking reads and subscriptions: these wait for Redis to return rather than failing. */
export function waitingConnection(url: string, name: string): Redis {
  return new Redis(url, { ...COMMON, connectionName: name, maxRetriesPerRequest: null });
}

const COMMON: RedisOptions = {
  connectTimeout: 5000,
  // Reconnect quickly at first, then every 2 s: a restarted Redis is found again within seconds.
  retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
};

/** Resolves once the connection is ready, or after `timeoutMs` (the server then starts and answers 503 until Redis comes). */
export function whenReady(connection: Redis, timeoutMs: number): Promise<boolean> {
  if (connection.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      connection.off('ready', ready);
      resolve(false);
    }, timeoutMs);
    timer.unref();
    const ready = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    connection.once('ready', ready);
  });
}

/** A Redis failure in a request: 503 `unavailable` with Retry-After. */
export function unavailable(error: unknown): never {
  // An answer the request was already going to give (404, 409) is not Redis failing.
  if (error instanceof HttpError) throw error;
  throw HttpError.unavailable('The job store is unavailable; retry later');
}
