import { expect } from 'chai';
import { Writable } from 'node:stream';
import { CadenceError } from '@cadence-detect/errors';
import { createLogger } from '@cadence-detect/logger';
import { isStoreOutage, STORE_OUTAGE_WAIT, untilRecorded } from '../src/jobs/store-outage.js';

function recordingLogger() {
  const lines: { message: string; job_id?: string }[] = [];
  const logger = createLogger({
    level: 'warn',
    stream: new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(JSON.parse(String(chunk)) as { message: string });
        done();
      },
    }),
  });
  return { logger, lines };
}

const away = () =>
  new CadenceError('ERR_DATABASE_CONNECTION_FAILED', { message: 'The job store is unavailable; retry later' });

/** A job's outcome waits out a job store that is away (jobs/store-outage.ts). */
describe('waiting out a store outage', () => {
  it('waits 2 s between attempts for up to 5 minutes by default', () => {
    expect(STORE_OUTAGE_WAIT).to.deep.equal({ everyMs: 2000, forMs: 300_000 });
  });

  it('writes again at a steady pace while the store is away, warns once, and answers what the write returns', async () => {
    const { logger, lines } = recordingLogger();
    const attempts: number[] = [];
    const written = await untilRecorded(
      async () => {
        attempts.push(performance.now());
        if (attempts.length < 4) throw away();
        return 'recorded';
      },
      logger,
      'j1',
      { everyMs: 150, forMs: 5000 },
    );
    expect(written).to.equal('recorded');
    expect(attempts).to.have.length(4);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    // Steady, not backing off (doubling waits would make the third 600 ms).
    for (const gap of gaps) expect(gap).to.be.within(140, 550);
    expect(lines.filter((l) => l.message === 'job outcome waits for the job store')).to.have.length(1);
    expect(lines[0]).to.include({ job_id: 'j1' });
  });

  it('gives up once the wait is over, with the store\u2019s own error', async () => {
    const { logger } = recordingLogger();
    let attempts = 0;
    const started = performance.now();
    const failure = await untilRecorded(
      async () => {
        attempts++;
        throw away();
      },
      logger,
      'j2',
      { everyMs: 100, forMs: 450 },
    ).catch((error: unknown) => error);
    expect(isStoreOutage(failure)).to.equal(true);
    expect(failure).to.have.property('message', 'The job store is unavailable; retry later');
    expect(attempts).to.be.within(4, 7);
    expect(performance.now() - started).to.be.within(400, 1200);
  });

  it('does not retry any other failure', async () => {
    const { logger, lines } = recordingLogger();
    let attempts = 0;
    const other = new CadenceError('ERR_INTERNAL', { message: 'too many concurrent updates' });
    const failure = await untilRecorded(
      async () => {
        attempts++;
        throw other;
      },
      logger,
      'j3',
      { everyMs: 100, forMs: 5000 },
    ).catch((error: unknown) => error);
    expect(failure).to.equal(other);
    expect(attempts).to.equal(1);
    expect(lines).to.deep.equal([]);
    expect(isStoreOutage(new Error('ECONNREFUSED'))).to.equal(false);
  });
});
