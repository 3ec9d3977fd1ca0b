import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { freePort, startHttpServer, type TestHttpServer } from '@cadence-detect/test-support';
import { fetchPage, parseWebsiteUrl } from '../src/index.js';

const options = { policy: null, maxBytes: 64 * 1024, timeoutMs: 3000 };
const guarded = { ...options, policy: { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.2/32'] } };

function html(response: ServerResponse, body: string, type = 'text/html; charset=utf-8'): void {
  response.writeHead(200, { 'content-type': type });
  response.end(body);
}

describe('fetchPage', function () {
  this.timeout(20_000);
  let server: TestHttpServer;
  let other: TestHttpServer;
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();

  before(async () => {
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      const route = routes.get(req.url ?? '');
      if (route) route(req, res);
      else {
        res.writeHead(404);
        res.end('missing');
      }
    };
    server = await startHttpServer(handler, '127.0.0.2');
    other = await startHttpServer(handler, '127.0.0.1');
    routes.set('/page', (req, res) => html(res, `<p>hello ${req.headers['user-agent']}</p>`));
    for (let i = 0; i < 7; i++)
      routes.set(`/hop/${i}`, (_req, res) => {
        res.writeHead(302, { location: `/hop/${i + 1}` });
        res.end();
      });
    routes.set('/hop/7', (_req, res) => html(res, '<p>arrived</p>'));
    routes.set('/big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('x'.repeat(200 * 1024));
    });
    routes.set('/big-chunked', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 100; i++) res.write('y'.repeat(4096));
      res.end();
    });
    routes.set('/bomb', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(10 * 1024 * 1024, 'a')));
    });
    routes.set('/gzip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.end(gzipSync('<p>zipped</p>'));
    });
    routes.set('/image', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(10));
    });
    routes.set('/stall', () => undefined);
    routes.set('/latin1', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
      res.end(Buffer.from('<p>caf\xe9</p>', 'latin1'));
    });
    routes.set('/meta-charset', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        Buffer.concat([
          Buffer.from('<meta charset="windows-1252"><p>'),
          Buffer.from([0x93, 0x68, 0x69, 0x94]),
          Buffer.from('</p>'),
        ]),
      );
    });
    routes.set('/error', (_req, res) => {
      res.writeHead(503);
      res.end('down');
    });
    routes.set('/to-private', (_req, res) => {
      res.writeHead(301, { location: other.url('/page') });
      res.end();
    });
  });
  after(async () => {
    await server?.close();
    await other?.close();
  });

  it('fetches a page with a clear User-Agent and reports what it got', async () => {
    const page = await fetchPage(new URL(server.url('/page')), options);
    expect(page).to.include({ status: 200, contentType: 'text/html', charset: 'utf-8' });
    expect(page.body).to.match(/hello Cadence\/\d/);
  });

  it('follows 5 redirects and refuses the sixth with ERR_TOO_MANY_REDIRECTS', async () => {
    const five = await fetchPage(new URL(server.url('/hop/2')), options);
    expect(five.finalUrl).to.equal(server.url('/hop/7'));
    const six = await fetchPage(new URL(server.url('/hop/1')), options).catch((e: unknown) => e);
    expect(six).to.have.property('code', 'ERR_TOO_MANY_REDIRECTS');
  });

  it('enforces the byte cap while streaming, with or without Content-Length, and on decoded bytes', async () => {
    for (const path of ['/big', '/big-chunked', '/bomb']) {
      const error = await fetchPage(new URL(server.url(path)), options).catch((e: unknown) => e);
      expect(error, path).to.have.property('code', 'ERR_PAGE_TOO_LARGE');
    }
    expect((await fetchPage(new URL(server.url('/gzip')), options)).body).to.equal('<p>zipped</p>');
  });

  it('refuses content types other than HTML and plain text', async () => {
    expect(await fetchPage(new URL(server.url('/image')), options).catch((e: unknown) => e)).to.have.property(
      'code',
      'ERR_UNSUPPORTED_CONTENT_TYPE',
    );
  });

  it('times out on a stalled server with ERR_FETCH_TIMEOUT, and stops on cancel', async () => {
    const started = Date.now();
    const error = await fetchPage(new URL(server.url('/stall')), { ...options, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).to.have.property('code', 'ERR_FETCH_TIMEOUT');
    expect(Date.now() - started).to.be.below(3000);
    const controller = new AbortController();
    // Cancelled once the request has reached the server, which never answers it.
    server.server.once('request', () => controller.abort());
    expect(
      await fetchPage(new URL(server.url('/stall')), { ...options, signal: controller.signal }).catch(
        (e: unknown) => e,
      ),
    ).to.have.property('code', 'ERR_CANCELLED');
  });

  it('maps a refused connection, an error status and an unknown host to their codes', async () => {
    const port = await freePort();
    expect(await fetchPage(new URL(`http://127.0.0.1:${port}/`), options).catch((e: unknown) => e)).to.have.property(
      'code',
      'ERR_CONNECTION_REFUSED',
    );
    expect(await fetchPage(new URL(server.url('/error')), options).catch((e: unknown) => e)).to.have.property(
      'code',
      'ERR_HTTP_STATUS',
    );
    expect(await fetchPage(new URL(server.url('/nothing-here')), options).catch((e: unknown) => e)).to.have.property(
      'code',
      'ERR_HTTP_STATUS',
    );
    const unresolved = await fetchPage(new URL('http://no-such-host.invalid/'), options).catch((e: unknown) => e);
    expect(unresolved).to.have.property('code', 'ERR_DNS_LOOKUP_FAILED');
    expect(unresolved)
      .to.have.property('message')
      .that.matches(/^Could not resolve no-such-host\.invalid: check the host name in the address \(/);
  });

  it('decodes the charset from the header or a meta tag', async () => {
    expect((await fetchPage(new URL(server.url('/latin1')), options)).body).to.contain('café');
    expect((await fetchPage(new URL(server.url('/meta-charset')), options)).body).to.contain('\u201chi\u201d');
  });

  it('under the guard, lets an allowed 127.0.0.2 through and refuses its redirect to 127.0.0.1', async () => {
    expect((await fetchPage(new URL(server.url('/page')), guarded)).status).to.equal(200);
    const redirected = await fetchPage(new URL(server.url('/to-private')), guarded).catch((e: unknown) => e);
    expect(redirected).to.have.property('code', 'ERR_PRIVATE_ADDRESS');
    expect(await fetchPage(new URL(other.url('/page')), guarded).catch((e: unknown) => e)).to.have.property(
      'code',
      'ERR_PRIVATE_ADDRESS',
    );
  });

  it('accepts only http and https URLs (file: only with local paths allowed)', () => {
    for (const bad of ['ftp://x.test/', 'javascript:alert(1)', 'file:///etc/passwd', 'not a url', 'http://']) {
      expect(() => parseWebsiteUrl(bad, { allowLocalPaths: false }), bad)
        .to.throw()
        .with.property('code', 'ERR_INVALID_SOURCE');
    }
    expect(parseWebsiteUrl('file:///tmp/x.html', { allowLocalPaths: true }).protocol).to.equal('file:');
  });
});
