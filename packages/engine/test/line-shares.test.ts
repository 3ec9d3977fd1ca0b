import { expect } from 'chai';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { linesAtHead, type LineReadings } from '../src/line-shares.js';

const HASH = 'a'.repeat(40);

/** One commit of 10 lines at HEAD, 6 of them named by its line record as `named`'s. */
function readings(named: string): LineReadings {
  return {
    head: {
      head: HASH,
      counted: 10,
      excluded: 0,
      binaryFiles: 0,
      byCommit: new Map([
        [
          HASH,
          {
            lines: 10,
            folders: new Map([['.', 10]]),
            marked: { lines: 6, folders: new Map([['.', 6]]), byAssistant: new Map([[named, 6]]) },
          },
        ],
      ]),
      boundary: new Set(),
      isExcluded: () => false,
    },
    reworked: new Map(),
  };
}

const commit = { hash: HASH, authorEmail: 'ada@example.test', authorName: 'Ada', isBoundary: false } as CommitRecord;
const weight = (assistants: string[]) =>
  new Map([[HASH, { confidence: 1, explicit: true, automation: false, counts: true, assistants }]]);

describe('engine: line shares name assistants one way', () => {
  it('an attribution that names no assistant never hides the one the line record names', () => {
    const lines = linesAtHead(readings('cursor'), [commit], weight(['unnamed assistant']));
    expect(lines.assistants).to.deep.equal({ cursor: 6 });
    expect(lines.explicit).to.equal(6);
  });

  it('an attribution that names the assistant is the one name used', () => {
    const lines = linesAtHead(readings('cursor'), [commit], weight(['Cursor']));
    expect(lines.assistants).to.deep.equal({ Cursor: 6 });
  });
});
