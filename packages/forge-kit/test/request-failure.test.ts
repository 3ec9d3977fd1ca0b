import { expect } from 'chai';
import { createServer } from 'node:net';
import { describeRequestFailure } from '../src/index.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('describeRequestFailure: why a request failed, in words', () => {
  it('a refused connection, read through fetch\u2019s cause chain', async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(describeRequestFailure(error)).to.equal(`connection refused (127.0.0.1:${port})`);
    // As a client wraps it (Octokit: a request error with status 500 and the fetch error as cause).
    expect(describeRequestFailure(Object.assign(new Error('fetch failed'), { status: 500, cause: error }))).to.equal(
      `connection refused (127.0.0.1:${port})`,
    );
  });

  it('a timeout and an abort, against a server that never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/`;
    try {
      const timedOut = await fetch(url, { signal: AbortSignal.timeout(100) }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(describeRequestFailure(timedOut)).to.equal('timed out');
      const controller = new AbortController();
      // Stopped once the connection is made and the request waits for its answer.
      silent.once('connection', () => controller.abort());
      const aborted = await fetch(url, { signal: controller.signal }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(describeRequestFailure(aborted)).to.match(/^stopped/);
    } finally {
      silent.close();
    }
  });

  it('DNS and TLS failures by the codes Node gives them, and HTTP statuses with their message', () => {
    expect(
      describeRequestFailure(
        Object.assign(new Error('getaddrinfo ENOTFOUND api.github.test'), {
          code: 'ENOTFOUND',
          hostname: 'api.github.test',
        }),
      ),
    ).to.equal('DNS: no address for api.github.test');
    expect(
      describeRequestFailure(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' })),
    ).to.equal('TLS: certificate has expired (CERT_HAS_EXPIRED)');
    expect(
      describeRequestFailure(
        Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      ),
    ).to.match(/^TLS: /);
    expect(describeRequestFailure(Object.assign(new Error('Not Found'), { status: 404 }))).to.equal(
      'HTTP 404: Not Found',
    );
    expect(
      describeRequestFailure(Object.assign(new Error('Bad Gateway'), { cause: { response: { status: 502 } } })),
    ).to.equal('HTTP 502: Bad Gateway');
    expect(describeRequestFailure('weird')).to.equal('failed');
  });
});
