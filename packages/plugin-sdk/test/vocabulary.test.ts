import { expect } from 'chai';
import { assessmentLevel, failsPolicy, isCommitIdPrefix, isFullCommitId, sourceKindOf } from '../src/index.js';

describe('commit names: one pattern, three senses', () => {
  const sha1 = 'a'.repeat(40);
  const sha256 = 'b'.repeat(64);

  it('a full name is 40 or 64 hex digits, lower case unless any case is asked for', () => {
    expect(isFullCommitId(sha1)).to.equal(true);
    expect(isFullCommitId(sha256)).to.equal(true);
    expect(isFullCommitId('c'.repeat(50))).to.equal(false);
    expect(isFullCommitId(sha1.toUpperCase())).to.equal(false);
    expect(isFullCommitId(sha1.toUpperCase(), { anyCase: true })).to.equal(true);
    expect(isFullCommitId(`--${sha1.slice(2)}`, { anyCase: true })).to.equal(false);
    expect(isFullCommitId(`${sha1}\n`)).to.equal(false);
  });

  it('an abbreviation is 7 to 64 hex digits', () => {
    expect(isCommitIdPrefix('abc1234')).to.equal(true);
    expect(isCommitIdPrefix('abc123')).to.equal(false);
    expect(isCommitIdPrefix(sha256)).to.equal(true);
    expect(isCommitIdPrefix(`${sha256}0`)).to.equal(false);
    expect(isCommitIdPrefix('ABC1234')).to.equal(false);
    expect(isCommitIdPrefix('ABC1234', { anyCase: true })).to.equal(true);
  });
});

describe('assessments and source kinds: one mapping for both vocabularies', () => {
  it('ranks a repository and a website verdict on one scale', () => {
    expect(['clean', 'suspicious', 'likely_ai_generated'].map(assessmentLevel)).to.deep.equal([0, 1, 2]);
    expect(['Likely Human-Written', 'Suspicious Activity', 'Likely AI-Generated'].map(assessmentLevel)).to.deep.equal([
      0, 1, 2,
    ]);
  });

  it('names the kind of request a result answers', () => {
    expect(sourceKindOf({ source_type: 'git' })).to.equal('repository');
    expect(sourceKindOf({ source_type: 'web' })).to.equal('website');
  });
});

describe('failsPolicy: a verdict against a fail-on setting, in either vocabulary', () => {
  it('fails at or above the setting, never with never', () => {
    expect(failsPolicy('Suspicious Activity', 'suspicious')).to.equal(true);
    expect(failsPolicy('Likely Human-Written', 'suspicious')).to.equal(false);
    expect(failsPolicy('likely_ai_generated', 'never')).to.equal(false);
  });
});
