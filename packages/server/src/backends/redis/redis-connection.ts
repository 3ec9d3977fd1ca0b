import { Redis, type RedisOptions } from 'ioredis';
import { CadenceError } from '@cadence-detect/errors';

/**
 * How every Redis connection of the server is made. Commands fail at once while Redis is away (no
 * offline queue, one retry): a request then fails with ERR_DATABASE_CONNECTION_FAILED (which the
 * server answers 503 `unavailable`) rather than hanging, and nothing is accepted that could not be
 * recorded. The connection itself keeps reconnecting.
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

/** A Redis failure in a request: ERR_DATABASE_CONNECTION_FAILED, the store's outage code. */
export function unavailable(error: unknown): never {
  // An outcome the call was already going to give (a refusal with its own code) is not Redis failing.
  if (error instanceof CadenceError) throw error;
  throw new CadenceError('ERR_DATABASE_CONNECTION_FAILED', {
    message: 'The job store is unavailable; retry later',
    cause: error,
  });
}
