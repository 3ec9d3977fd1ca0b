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

describe('engine: the lines\u2019 false-alarm floor (era_check)', () => {
  const OLD = Date.UTC(2019, 5, 1) / 1000;
  const NEW = Date.UTC(2024, 5, 1) / 1000;
  /** `old` commits from 2019 (probability 0.1, 5 lines each), one explicit 2019 commit, one 2024 commit (0.9, 100 lines). */
  function history(old: number) {
    const hashes = Array.from({ length: old + 2 }, (_, i) => i.toString(16).padStart(40, '0'));
    const commits = hashes.map(
      (hash, i) =>
        ({
          hash,
          authorEmail: 'ada@example.test',
          authorName: 'Ada',
          authorTime: i === old + 1 ? NEW : OLD,
          isBoundary: false,
        }) as CommitRecord,
    );
    const lines = (i: number): number => (i === old + 1 ? 100 : 5);
    const byCommit = new Map(hashes.map((hash, i) => [hash, { lines: lines(i), folders: new Map([['.', lines(i)]]) }]));
    const weights = new Map(
      hashes.map((hash, i) => [
        hash,
        i === old
          ? { confidence: 1, explicit: true, automation: false, counts: true, assistants: ['Claude Code'] }
          : { confidence: i === old + 1 ? 0.9 : 0.1, explicit: false, automation: false, counts: true, assistants: [] },
      ]),
    );
    const counted = [...byCommit.values()].reduce((sum, c) => sum + c.lines, 0);
    const readings: LineReadings = {
      head: {
        head: HASH,
        counted,
        excluded: 0,
        binaryFiles: 0,
        byCommit,
        boundary: new Set(),
        isExcluded: () => false,
      },
      reworked: new Map(),
    };
    return { readings, commits, weights };
  }

  it('reads the inferred share of the lines scored commits wrote before 2021-06-29; explicit ones left out', () => {
    const { readings, commits, weights } = history(20);
    const lines = linesAtHead(readings, commits, weights, undefined, { eraCheck: true });
    expect(lines.era_check).to.deep.equal({ before: '2021-06-29', commits: 20, lines: 100, inferred: 10, share: 0.1 });
  });

  it('is null below 20 such commits, and absent when only part of the history was read', () => {
    const { readings, commits, weights } = history(19);
    expect(linesAtHead(readings, commits, weights, undefined, { eraCheck: true }).era_check).to.equal(null);
    expect(linesAtHead(readings, commits, weights)).to.not.have.property('era_check');
  });
});
