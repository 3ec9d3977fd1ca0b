import { expect } from 'chai';
import { Writable } from 'node:stream';
import type { EmittedEvent } from '@cadence-detect/engine';
import { progressLine } from '../src/cli/progress-line.js';

/** A terminal's stderr: what was written, control sequences and all. */
function terminal(): { stream: Writable & { isTTY: boolean; columns: number }; text(): string } {
  let written = '';
  const stream = Object.assign(
    new Writable({
      write: (chunk, _encoding, done) => {
        written += String(chunk);
        done();
      },
    }),
    { isTTY: true, columns: 200 },
  );
  return { stream, text: () => written };
}

describe('the progress line on a terminal', () => {
  it('counts commits as commits and strategies as a share of the work, never strategies as commits', () => {
    const tty = terminal();
    const progress = progressLine(tty.stream);
    // While the history is read: commits read, of all.
    progress.onEvent({
      event: 'progress',
      type: 'progress',
      commits_analyzed: 3000,
      total_commits: 10000,
    } as EmittedEvent);
    expect(tty.text().split('\x1b[K').at(-1)).to.equal('reading commits: 3000 of 10000');
    progress.onEvent({
      event: 'progress',
      type: 'progress',
      commits_analyzed: 10000,
      total_commits: 10000,
      strategy: 'velocity',
      detections: 2,
      strategies_done: 3,
      strategies_total: 10,
    } as EmittedEvent);
    const shown = tty.text().split('\x1b[K').at(-1);
    expect(shown).to.equal('judging 10000 commits: velocity done, 30% of the strategies');
    expect(shown).to.not.contain('3000/10000');
  });

  it('writes nothing when stderr is not a terminal', () => {
    const piped = terminal();
    piped.stream.isTTY = false;
    progressLine(piped.stream).onEvent({
      event: 'progress',
      type: 'progress',
      commits_analyzed: 1,
      total_commits: 2,
      strategy: 'size',
      detections: 0,
    } as EmittedEvent);
    expect(piped.text()).to.equal('');
  });
});
