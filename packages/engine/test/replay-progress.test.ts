import { expect } from 'chai';
import { replayProgress } from '../src/sources/whole-history-lines.js';

describe('engine: the line pass says how far it has got', () => {
  it('says the commits replayed of those to replay, at most every two seconds of its clock', () => {
    let clock = 1_000_000;
    const said: string[] = [];
    const progress = replayProgress(
      (message) => said.push(message),
      () => clock,
    );
    progress(1, 50_000);
    expect(said).to.deep.equal([]);
    clock += 2_000;
    progress(12_000, 50_000);
    progress(12_001, 50_000);
    clock += 1_999;
    progress(20_000, 50_000);
    clock += 1;
    progress(21_000, 50_000);
    expect(said).to.deep.equal([
      'counting lines: 12,000 of 50,000 commits replayed',
      'counting lines: 21,000 of 50,000 commits replayed',
    ]);
  });
});
