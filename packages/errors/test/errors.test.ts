import { expect } from 'chai';
import { CadenceError, HttpError, toCadenceError } from '@cadence-detect/errors';

describe('CadenceError', () => {
  it('carries its code, the default message and details', () => {
    const error = new CadenceError('ERR_CANCELLED', { details: { job: 'j1' } });
    expect(error).to.be.instanceOf(Error);
    expect(error.name).to.equal('CadenceError');
    expect(error.code).to.equal('ERR_CANCELLED');
    expect(error.message).to.equal('The job was cancelled');
    expect(error.details).to.deep.equal({ job: 'j1' });
    expect(CadenceError.is(error, 'ERR_CANCELLED')).to.equal(true);
    expect(CadenceError.is(error, 'ERR_JOB_TIMEOUT')).to.equal(false);
  });

  it('captures no stack frames for an operational outcome, and leaves the global limit as it was', () => {
    const before = Error.stackTraceLimit;
    const error = new CadenceError('ERR_PRIVATE_ADDRESS');
    expect(Error.stackTraceLimit).to.equal(before);
    expect(String(error.stack)).not.to.match(/\n\s+at /);
    expect(String(new Error('plain').stack)).to.match(/\n\s+at /);
  });

  it('keeps the stack of an internal error, and the cause of a wrapped failure', () => {
    const internal = new CadenceError('ERR_INTERNAL', { message: 'a bug' });
    expect(String(internal.stack)).to.match(/\n\s+at /);
    const cause = new TypeError('boom');
    const wrapped = toCadenceError(cause);
    expect(wrapped.code).to.equal('ERR_INTERNAL');
    expect(wrapped.message).to.equal('boom');
    expect(wrapped.cause).to.equal(cause);
    expect(toCadenceError(wrapped)).to.equal(wrapped);
  });

  it('is recognised by instanceof and CadenceError.is when another copy of the package made it, and only then', async () => {
    // A second evaluation of the module, as a plugin bundling its own copy would bring.
    const copy = (await import(
      new URL('../dist/cadence-error.js?another-copy', import.meta.url).href
    )) as typeof import('../src/cadence-error.js');
    expect(copy.CadenceError).to.not.equal(CadenceError);
    const foreign = new copy.CadenceError('ERR_PRIVATE_ADDRESS');
    expect(foreign).to.be.instanceOf(CadenceError);
    expect(CadenceError.is(foreign, 'ERR_PRIVATE_ADDRESS')).to.equal(true);
    expect(toCadenceError(foreign)).to.equal(foreign);
    expect(new CadenceError('ERR_CANCELLED')).to.be.instanceOf(copy.CadenceError);
    expect(new Error('plain')).to.not.be.instanceOf(CadenceError);
    expect({ code: 'ERR_CANCELLED', name: 'CadenceError' }).to.not.be.instanceOf(CadenceError);
    expect(HttpError.notFound()).to.not.be.instanceOf(CadenceError);
    // The mark is on the prototype: nothing of it is serialised or listed.
    expect(Object.getOwnPropertySymbols(foreign)).to.deep.equal([]);
    expect(JSON.parse(JSON.stringify(foreign))).to.deep.equal(
      JSON.parse(JSON.stringify(new CadenceError('ERR_PRIVATE_ADDRESS'))),
    );
  });

  it('renders an HttpError without a stack: it is always an answer, never a bug', () => {
    const before = Error.stackTraceLimit;
    const error = HttpError.invalidRequest('url', 'missing');
    expect(Error.stackTraceLimit).to.equal(before);
    expect([error.status, error.error, error.message]).to.deep.equal([400, 'invalid_request', 'Invalid url: missing']);
    expect(String(error.stack)).not.to.match(/\n\s+at /);
  });
});

describe('errors: redactSecrets', () => {
  it('replaces whole secrets anywhere, and a trailing fragment of 8 or more characters that begins one', async () => {
    const { redactSecrets } = await import('../src/index.js');
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123';
    expect(redactSecrets(`a ${secret} b ${secret}`, [secret])).to.equal('a [redacted] b [redacted]');
    expect(redactSecrets(`header: token ${secret.slice(0, 12)}`, [secret])).to.equal('header: token [redacted]');
    // Shorter fragments are ordinary text; short secrets are never used.
    expect(redactSecrets('the word ghp_abc', [secret])).to.equal('the word ghp_abc');
    expect(redactSecrets('abc and abc', ['abc'])).to.equal('abc and abc');
  });
});
