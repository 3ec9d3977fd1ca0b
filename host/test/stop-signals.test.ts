import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '@cadence-detect/logger';
import { runUntilStopped } from '../src/cli/stop-signals.js';

function recordingLogger(): { log: ReturnType<typeof createLogger>; messages: string[] } {
  const messages: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      messages.push(JSON.parse(String(chunk)).message);
      done();
    },
  });
  return { log: createLogger({ level: 'info', stream }), messages };
}

describe('runUntilStopped (how cadence webhook and cadence worker end)', () => {
  it('resolves once the shutdown is done after SIGTERM', async () => {
    const { log, messages } = recordingLogger();
    const listenersBefore = process.listenerCount('SIGTERM');
    let shutdowns = 0;
    const stopped = runUntilStopped(log, 1, async () => {
      shutdowns++;
    });
    process.emit('SIGTERM');
    await stopped;
    expect(shutdowns).to.equal(1);
    expect(messages).to.deep.equal(['shutting down', 'stopped']);
    // Its handlers are gone: a second signal ends the process as usual.
    expect(process.listenerCount('SIGTERM')).to.equal(listenersBefore);
  });

  it('leaves when a shutdown hangs past the grace period and the overrun', async () => {
    const { log, messages } = recordingLogger();
    const started = Date.now();
    const stopped = runUntilStopped(log, 0, () => new Promise<void>(() => undefined), 100);
    process.emit('SIGINT');
    await stopped;
    expect(Date.now() - started).to.be.at.least(90);
    expect(messages).to.deep.equal(['shutting down', 'shutdown did not finish in time; leaving']);
  });
});
