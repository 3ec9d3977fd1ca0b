import { expect } from 'chai';
import diagnostics from 'node:diagnostics_channel';
import type { Worker } from 'node:worker_threads';
import { CadenceError } from '@cadence-detect/errors';
import { parseDocument, parseDocumentInWorker } from '../src/index.js';

const options = { url: 'http://x.test/', contentType: 'text/html' };
const page = (body: string): string =>
  `<!doctype html><html lang="en"><head><title>T</title></head><body>${body}</body></html>`;
const deepPage = page(('<div>'.repeat(2_500) + 'Deep text.' + '</div>'.repeat(2_500)).repeat(20));
/** The next worker thread this process starts (Node publishes each on the worker_threads channel). */
function nextWorker(): Promise<Worker> {
  return new Promise((resolve) => {
    const onWorker = (message: unknown): void => {
      diagnostics.unsubscribe('worker_threads', onWorker);
      resolve((message as { worker: Worker }).worker);
    };
    diagnostics.subscribe('worker_threads', onWorker);
  });
}

describe('parseDocumentInWorker', function () {
  this.timeout(60_000);

  it('returns, as plain data, the document parseDocument makes on the calling thread', async () => {
    const html = page(
      '<main><h1>Title</h1><p>One. Two!</p><ul><li>a</li><li>b <a href="/x">x</a></li></ul><img src="i.png"></main>',
    );
    expect(await parseDocumentInWorker(html, options)).to.deep.equal(parseDocument(html, options));
    expect(await parseDocumentInWorker(deepPage, options)).to.deep.equal(parseDocument(deepPage, options));
    const plain = { ...options, contentType: 'text/plain' };
    expect(await parseDocumentInWorker('One.\n\nTwo.', plain)).to.deep.equal(parseDocument('One.\n\nTwo.', plain));
  });

  it("stops the worker when the signal aborts, rejecting with the signal's CadenceError", async () => {
    const controller = new AbortController();
    const started = nextWorker();
    const parsing = parseDocumentInWorker(deepPage, { ...options, signal: controller.signal });
    const worker = await started;
    const online = new Promise<void>((resolve) => worker.once('online', () => resolve()));
    let answered = false;
    worker.on('message', () => (answered = true));
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // Abort once the thread runs rather than before it is up: the page takes far longer to parse.
    await online;
    controller.abort(new CadenceError('ERR_JOB_TIMEOUT'));
    const error = await parsing.catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CadenceError).with.property('code', 'ERR_JOB_TIMEOUT');
    // Left running, the worker would post its document before it exits.
    await exited;
    expect(answered, 'the worker was stopped before it answered').to.equal(false);
    const cancelled = await parseDocumentInWorker('<p>x</p>', { ...options, signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    );
    expect(cancelled).to.be.instanceOf(CadenceError).with.property('code', 'ERR_CANCELLED');
  });

  it('turns a worker that dies (here: out of its heap) into a CadenceError, and the next parse works', async () => {
    const error = await parseDocumentInWorker(deepPage, { ...options, maxHeapMb: 4 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CadenceError).with.property('code', 'ERR_OUT_OF_MEMORY');
    expect((await parseDocumentInWorker(page('<p>after</p>'), options)).text).to.equal('after');
  });
});
