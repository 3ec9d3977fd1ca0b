import { expect } from 'chai';
import { CadenceError, HttpError, jobErrorCode, OPERATIONAL_CODES, type OperationalCode } from '@cadence-detect/errors';
import { httpAnswerOf, httpErrorOf } from '../src/middleware/http-answers.js';

const body = (error: HttpError) => ({
  status: error.status,
  error: error.error,
  message: error.message,
  details: error.details,
  extra: error.extra,
  headers: error.headers,
});

/** docs/http-api.md, Conventions: the one mapping of operational codes to HTTP answers. */
describe('HTTP answers of operational codes (middleware/http-answers.ts)', () => {
  it('answers a full queue and a server shutting down 503 overloaded, retry in 30 s', () => {
    expect(body(httpErrorOf(new CadenceError('ERR_QUEUE_FULL')))).to.deep.equal({
      status: 503,
      error: 'overloaded',
      message: 'Too many jobs are waiting; retry later',
      details: undefined,
      extra: { retry_after: 30 },
      headers: { 'Retry-After': '30' },
    });
    expect(body(httpErrorOf(new CadenceError('ERR_SHUTTING_DOWN')))).to.deep.equal({
      status: 503,
      error: 'overloaded',
      message: 'The server is shutting down',
      details: undefined,
      extra: { retry_after: 30 },
      headers: { 'Retry-After': '30' },
    });
  });

  it('answers a store that cannot be reached, and a delivery still being created, 503 unavailable, retry in 5 s', () => {
    const away = httpErrorOf(
      new CadenceError('ERR_DATABASE_CONNECTION_FAILED', {
        message: 'The job store is unavailable; retry later',
        cause: new Error('ECONNREFUSED'),
      }),
    );
    expect(body(away)).to.deep.equal({
      status: 503,
      error: 'unavailable',
      message: 'The job store is unavailable; retry later',
      details: undefined,
      extra: { retry_after: 5 },
      headers: { 'Retry-After': '5' },
    });
    expect(body(httpErrorOf(new CadenceError('ERR_DELIVERY_IN_PROGRESS')))).to.deep.include({
      status: 503,
      error: 'unavailable',
      message: 'The first delivery of this id did not finish creating its job; retry later',
      extra: { retry_after: 5 },
    });
  });

  it('answers an unknown job 404 not_found and one already ended 409 conflict, with their messages', () => {
    expect(body(httpErrorOf(new CadenceError('ERR_JOB_NOT_FOUND', { message: 'No job j1' })))).to.deep.equal({
      status: 404,
      error: 'not_found',
      message: 'No job j1',
      details: undefined,
      extra: {},
      headers: {},
    });
    expect(
      body(httpErrorOf(new CadenceError('ERR_JOB_FINAL', { message: 'Job j1 is already completed' }))),
    ).to.deep.include({ status: 409, error: 'conflict', message: 'Job j1 is already completed' });
    expect(body(httpErrorOf(new CadenceError('ERR_SCAN_NOT_ALLOWED')))).to.deep.include({
      status: 403,
      error: 'forbidden',
    });
  });

  it('answers a refused URL 400 invalid_request naming the field (the url unless the error says)', () => {
    expect(body(httpErrorOf(new CadenceError('ERR_INVALID_SOURCE', { message: 'Refused' })))).to.deep.include({
      status: 400,
      error: 'invalid_request',
      details: { field: 'url', reason: 'Refused' },
    });
    const branch = new CadenceError('ERR_INVALID_SOURCE', {
      message: 'Not a valid branch name: "-x"',
      details: { field: 'branch', reason: 'not a valid branch name' },
    });
    expect(body(httpErrorOf(branch))).to.deep.include({
      status: 400,
      details: { field: 'branch', reason: 'not a valid branch name' },
    });
    // A local path (where allowed) that does not exist is the request's mistake too.
    expect(
      body(
        httpErrorOf(
          new CadenceError('ERR_PATH_NOT_FOUND', {
            message: 'No such path: /x',
            details: { field: 'url', reason: 'no such path' },
          }),
        ),
      ),
    ).to.deep.include({ status: 400, error: 'invalid_request', details: { field: 'url', reason: 'no such path' } });
  });

  it('answers every other code 500 internal_error with the code as the reason, and leaves an HttpError as it is', () => {
    const mapped = new Set<OperationalCode>([
      'ERR_INVALID_SOURCE',
      'ERR_PATH_NOT_FOUND',
      'ERR_JOB_NOT_FOUND',
      'ERR_JOB_FINAL',
      'ERR_QUEUE_FULL',
      'ERR_SHUTTING_DOWN',
      'ERR_DATABASE_CONNECTION_FAILED',
      'ERR_DELIVERY_IN_PROGRESS',
      'ERR_SCAN_NOT_ALLOWED',
    ]);
    for (const code of Object.keys(OPERATIONAL_CODES) as OperationalCode[]) {
      expect(httpAnswerOf(code) !== null, code).to.equal(mapped.has(code));
      if (mapped.has(code)) continue;
      const shown = jobErrorCode(code);
      expect(body(httpErrorOf(new CadenceError(code))), code).to.deep.include({
        status: 500,
        error: 'internal_error',
        details: { component: 'engine', code: shown.code, reason: shown.reason ?? code },
      });
    }
    // A missing branch is the interface's ERR_NO_COMMITS_FOUND, its finer cause the reason.
    expect(
      body(httpErrorOf(new CadenceError('ERR_BRANCH_NOT_FOUND', { message: 'Branch not found: x' }))),
    ).to.deep.include({
      message: 'Branch not found: x',
      details: { component: 'engine', code: 'ERR_NO_COMMITS_FOUND', reason: 'branch_not_found' },
    });
    const given = HttpError.invalidRequest('limit', 'must be a non-negative integer');
    expect(httpErrorOf(given)).to.equal(given);
    expect(body(httpErrorOf(new Error('boom')))).to.deep.include({
      status: 500,
      error: 'internal_error',
      message: 'The request failed',
    });
  });
});
