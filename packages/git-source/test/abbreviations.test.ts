import { expect } from 'chai';
import { uniqueAbbreviations } from '../src/index.js';

describe('uniqueAbbreviations', () => {
  it('keeps 7 characters where they are unique and lengthens only the hashes that share a prefix', () => {
    const a = 'abcdef1234567890abcdef1234567890abcdef12';
    const b = 'abcdef1299999990abcdef1234567890abcdef12';
    const c = 'abcdef1200000000abcdef1234567890abcdef12';
    const lone = '0123456789abcdef0123456789abcdef01234567';
    const out = uniqueAbbreviations([a, b, c, lone]);
    expect(out.get(lone)).to.equal('0123456');
    expect(out.get(a)).to.equal('abcdef123');
    expect(out.get(b)).to.equal('abcdef129');
    expect(out.get(c)).to.equal('abcdef120');
    const values = [...out.values()];
    for (const [hash, short] of out)
      expect(values.filter((v) => hash !== v && v !== short && hash.startsWith(v))).to.deep.equal([]);
  });

  it('handles one hash, duplicates and 64-digit hashes', () => {
    const sha256 = 'f'.repeat(64);
    expect(uniqueAbbreviations([sha256, sha256]).get(sha256)).to.equal('fffffff');
    expect(uniqueAbbreviations([]).size).to.equal(0);
  });
});
