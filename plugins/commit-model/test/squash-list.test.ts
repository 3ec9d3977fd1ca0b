import { expect } from 'chai';
import { makeCommits } from '@cadence-detect/plugin-testkit';
import { extractFeatures, FEATURE_NAMES } from '../src/index.js';
import { authoredBody } from '../src/squash-list.js';

const T0 = Date.parse('2019-03-01T09:00:00Z') / 1000;

/** GitHub's body of a squash merge of three commits: each message opened with `* `, a blank line apart. */
const SQUASHED = [
  '* Parser: handle nested quotes',
  '',
  '* Docs: note the new option',
  '',
  '* Fix: typo in the error',
].join('\n');

describe('commit-model: a squash merge\u2019s list of commit messages is GitHub\u2019s, not bullets its authors wrote', () => {
  it('drops the markers GitHub opens each squashed message with, and nothing else', () => {
    expect(authoredBody('Quote handling (#412)', SQUASHED)).to.equal(
      ['Parser: handle nested quotes', '', 'Docs: note the new option', '', 'Fix: typo in the error'].join('\n'),
    );
    // A squashed message's own bullets stay; so does an entry's body.
    const nested = ['* Add the parser', '', '- handles quotes', '- handles escapes', '', '* Tests'].join('\n');
    expect(authoredBody('Parser (#7)', nested)).to.equal(
      ['Add the parser', '', '- handles quotes', '- handles escapes', '', 'Tests'].join('\n'),
    );
  });

  it('leaves a list written by hand, a one-commit squash and a subject without (#N) as they are', () => {
    const byHand = ['* Parser: handle nested quotes', '* Docs: note the new option'].join('\n');
    expect(authoredBody('Quote handling (#412)', byHand)).to.equal(byHand);
    expect(authoredBody('Quote handling (#412)', '* Parser: handle nested quotes')).to.equal(
      '* Parser: handle nested quotes',
    );
    expect(authoredBody('Quote handling', SQUASHED)).to.equal(SQUASHED);
  });

  it('reads a squash merge\u2019s message features as if its messages had been listed plainly', () => {
    const spec = (body: string) => ({ at: T0 + 86_400, subject: 'Quote handling (#412)', body, additions: 40 });
    const [, squashed] = extractFeatures(makeCommits([{ at: T0, subject: 'Start' }, spec(SQUASHED)]));
    const plain = SQUASHED.replace(/^\* /gm, '');
    const [, listed] = extractFeatures(makeCommits([{ at: T0, subject: 'Start' }, spec(plain)]));
    expect([...squashed!]).to.deep.equal([...listed!]);
    expect(squashed![FEATURE_NAMES.indexOf('labelled_bullets')]).to.equal(0);
    expect(squashed![FEATURE_NAMES.indexOf('bullet_lines')]).to.equal(0);
  });
});
