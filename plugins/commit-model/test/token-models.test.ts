import { expect } from 'chai';
import { makeCommits } from '@cadence-detect/plugin-testkit';
import {
  codeTokenKey,
  codeTokenReader,
  decodeTokenModel,
  encodeTokenModel,
  codeTokenVector,
  commitMessageTokens,
  probabilityOf,
  shippedCodeTokenReader,
  shippedModel,
  extractFeatures,
  FEATURE_NAMES,
  messageTokenVector,
  shippedTokenScorer,
  tokenScorer,
} from '../src/index.js';
import { denseScore, slotOf, tokenBounds } from '../src/hashed-tokens.js';

const BITS = 12;
const norm = (values: Float32Array, from: number, to: number): number =>
  Math.sqrt(values.slice(from, to).reduce((sum, v) => sum + v * v, 0));

describe('commit-model: the message token model', () => {
  it('hashes the words, the pairs of words and the subject\u2019s 4-grams, each part scaled to unit length', () => {
    const x = messageTokenVector('Fix parser', 'Handle empty input', BITS);
    // Words: fix, parser, handle, empty, input (5) and their 4 pairs; the subject " fix parser " has 9 4-grams.
    expect(x.index.length).to.equal(9 + 9);
    expect(norm(x.value, 0, 9)).to.be.closeTo(1, 1e-6);
    expect(norm(x.value, 9, 18)).to.be.closeTo(1, 1e-6);
    expect(Math.max(...x.index)).to.be.below(1 << BITS);
    // Case does not matter; the order of the words does (pairs).
    expect(Array.from(messageTokenVector('FIX PARSER', 'handle EMPTY input', BITS).index)).to.deep.equal(
      Array.from(x.index),
    );
    expect(Array.from(messageTokenVector('Fix parser', 'input empty handle', BITS).index)).to.not.deep.equal(
      Array.from(x.index),
    );
  });

  it('reads a squash\u2019s list of messages without GitHub\u2019s markers, as the other features do', () => {
    const subject = 'Add retries (#12)';
    const listed = commitMessageTokens({ subject, body: '* Add retries\n\n* Test them' });
    const plain = messageTokenVector(subject, 'Add retries\n\nTest them');
    expect(Array.from(listed.index)).to.deep.equal(Array.from(plain.index));
  });

  it('scores from its shipped form as from the fitted weights, to the 16 bits it keeps', () => {
    const weights = new Float32Array(1 << BITS);
    const x = messageTokenVector('Fix parser', 'Handle empty input', BITS);
    x.index.forEach((slot, k) => (weights[slot] = k % 2 ? 0.8 : -0.3));
    weights[7] = 5; // the largest sets the unit
    const model = decodeTokenModel(encodeTokenModel(weights, 0.25));
    expect(model.bits).to.equal(BITS);
    expect(model.bias).to.equal(0.25);
    expect(model.weights[7]).to.be.closeTo(5, 1e-6);
    const dense = 0.25 + Array.from(x.index).reduce((sum, slot, k) => sum + weights[slot]! * x.value[k]!, 0);
    expect(tokenScorer(model)('Fix parser', 'Handle empty input')).to.be.closeTo(dense, 1e-3);
  });

  it('refuses a malformed model file: another format, a size that disagrees with its bits, an impossible size', () => {
    const good = encodeTokenModel(new Float32Array(256), 0);
    expect(() => decodeTokenModel(good.subarray(0, 20))).to.throw(/malformed \(too short\)/);
    expect(() => decodeTokenModel(good.subarray(0, good.length - 2))).to.throw(/malformed \(.* bytes for 8 bits\)/);
    const other = Uint8Array.from(good);
    other[0] = 0x7b; // a JSON file's `{`
    expect(() => decodeTokenModel(other)).to.throw(/not a format-1 token model/);
    const huge = Uint8Array.from(good);
    huge[5] = 40;
    expect(() => decodeTokenModel(huge)).to.throw(/malformed \(40 bits\)/);
    expect(() => encodeTokenModel(new Float32Array(100), 0)).to.throw(/power of two/);
  });

  it('ships a token model that scores an assistant\u2019s summary above a terse human subject, as the commit model\u2019s message_tokens feature', () => {
    const score = shippedTokenScorer();
    const assistant = score(
      'Add comprehensive retry handling for transient network errors',
      '## Summary\n\n- Implement exponential backoff in `fetchWithRetry`\n- Ensure robust handling of `ECONNRESET`\n- Add unit tests covering the new behavior',
    );
    const human = score('oops', '');
    expect(assistant).to.be.above(human + 1);
    const [commit] = makeCommits([{ at: 1_700_000_000, subject: 'oops' }]);
    const x = extractFeatures([commit!])[0]!;
    expect(FEATURE_NAMES.at(-2)).to.equal('message_tokens');
    expect(x.at(-2)).to.be.closeTo(human, 1e-9);
  });
});

describe('commit-model: the added code\u2019s token model', () => {
  const line = (text: string) => ({ path: 'src/a.ts', text });

  it('reads code, comments and each line\u2019s shape as three parts, each scaled to unit length', () => {
    const x = codeTokenVector([line('  const total = 0;'), line('  // Sum the values')], BITS);
    // Code: const, total, =, 0, ; and 4 pairs; comment: //, Sum, the, values and 3 pairs; shapes: s2:const, s2://.
    expect(x.index.length).to.equal(9 + 7 + 2);
    expect(norm(x.value, 0, 9)).to.be.closeTo(1, 1e-6);
    expect(norm(x.value, 9, 16)).to.be.closeTo(1, 1e-6);
    expect(norm(x.value, 16, 18)).to.be.closeTo(1, 1e-6);
    // A token is hashed after its part's prefix; a pair as the two tokens joined by a space.
    const mask = (1 << BITS) - 1;
    expect(Array.from(x.index.slice(0, 9))).to.include.members([slotOf('k:total', mask), slotOf('k:total =', mask)]);
    expect(Array.from(x.index.slice(9, 16))).to.include.members([
      slotOf('c:Sum the', mask),
      slotOf('c:the values', mask),
    ]);
    // The same word in code and in a comment is two tokens; the file it came from is no token.
    const code = codeTokenVector([line('total')], BITS).index[0];
    const comment = codeTokenVector([line('// total')], BITS).index;
    expect(Array.from(comment)).to.not.include(code);
    expect(Array.from(codeTokenVector([{ path: 'other/b.py', text: 'total' }], BITS).index)).to.deep.equal(
      Array.from(codeTokenVector([line('total')], BITS).index),
    );
    expect(codeTokenVector([], BITS).index.length).to.equal(0);
  });

  it('scores a commit\u2019s lines as a line-pass reader, under a key that changes with the weights', () => {
    const weights = new Float32Array(1 << BITS);
    const x = codeTokenVector([line('return total;')], BITS);
    x.index.forEach((slot) => (weights[slot] = 0.5));
    const reader = codeTokenReader(decodeTokenModel(encodeTokenModel(weights, -1)), 'k');
    const expected = -1 + Array.from(x.value).reduce((sum, v) => sum + 0.5 * v, 0);
    expect(reader.read([line('return total;')])).to.be.closeTo(expected, 1e-3);
    expect(reader.read([])).to.equal(-1);
    const shipped = shippedCodeTokenReader();
    expect(shipped.key).to.match(/^commit-model\/code-tokens@[0-9a-f]{16}$/);
    const other = Float32Array.from(weights);
    other[5] = 0.25;
    expect(codeTokenKey(encodeTokenModel(other, -1))).to.not.equal(codeTokenKey(encodeTokenModel(weights, -1)));
    expect(codeTokenKey(encodeTokenModel(weights, -1))).to.equal(codeTokenKey(encodeTokenModel(weights, -1)));
    expect(Number.isFinite(shipped.read([line('return total;')]))).to.equal(true);
  });

  it('scores as a reader exactly what the vector scores, commit after commit (slots once per part, stamps wrapping)', () => {
    // Random weights over few slots: tokens collide within and across parts, so a slot counted twice shows.
    let seed = 7;
    const next = (): number => ((seed = Math.imul(seed ^ (seed >>> 15), 2246822507) + 1) >>> 0) / 2 ** 32;
    const weights = Float32Array.from({ length: 1 << BITS }, () => next() * 2 - 1);
    const model = { bits: BITS, bias: -0.75, weights };
    const reader = codeTokenReader(model, 'k');
    const words = ['total', 'sum', '// note', '\tif (x) {', '    return y;', '"""Doc."""', 'a = b + c', '# comment'];
    // 600 commits: past the byte stamps' wrap at 255; some commits of hundreds of lines grow the slot lists.
    for (let commit = 0; commit < 600; commit++) {
      const count = commit % 97 === 0 ? 400 : 1 + (commit % 9);
      const lines = Array.from({ length: count }, (_, k) =>
        line(
          `${words[(commit + k) % words.length]} ${words[(commit * 7 + k * 3) % words.length]} v${(commit * k) % 50}`,
        ),
      );
      expect(reader.read(lines)).to.equal(denseScore(weights, model.bias, codeTokenVector(lines, BITS)));
    }
    expect(reader.read([])).to.equal(model.bias);
  });

  it('reads a commit without a reading (lines off) as if code_tokens were at its mean: it moves nothing', () => {
    const model = shippedModel();
    const [commit] = makeCommits([{ at: 1_700_000_000, subject: 'Add parser', additions: 40 }]);
    const unknown = extractFeatures([commit!])[0]!;
    expect(Number.isNaN(unknown.at(-1))).to.equal(true);
    const atMean = Float64Array.from(unknown);
    atMean[atMean.length - 1] = model.mean.at(-1)!;
    expect(probabilityOf(model, unknown)).to.equal(probabilityOf(model, atMean));
    const read = extractFeatures([commit!], { codeTokens: () => model.mean.at(-1)! + 3 * model.scale.at(-1)! })[0]!;
    expect(probabilityOf(model, read)).to.not.equal(probabilityOf(model, atMean));
  });
});

describe('commit-model: the tokenizer', () => {
  it('splits as /[A-Za-z_][A-Za-z0-9_]*|\\d+|[^\\sA-Za-z0-9_]{1,3}/g does, on any text, without a string per token', () => {
    const WORD = /[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_]{1,3}/g;
    const pieces = [
      'a',
      'Z',
      '_',
      '0',
      '9',
      ' ',
      '\t',
      '\u00a0',
      '\u2003',
      '\ufeff',
      '(',
      '=',
      '>',
      '-',
      '/',
      '*',
      '#',
      '"',
      'é',
      '\u{1F600}',
      '\n',
      '.',
      'x1',
      'foo',
      '    ',
    ];
    let state = 7;
    const next = (n: number): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) % n;
    const bounds: number[] = [];
    for (let t = 0; t < 5000; t++) {
      const text = Array.from({ length: next(40) }, () => pieces[next(pieces.length)]!).join('');
      tokenBounds(text, bounds);
      const mine: string[] = [];
      for (let k = 0; k < bounds.length; k += 2) mine.push(text.slice(bounds[k], bounds[k + 1]));
      expect(mine, JSON.stringify(text)).to.deep.equal(text.match(WORD) ?? []);
    }
  });
});
