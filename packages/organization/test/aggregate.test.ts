import { expect } from 'chai';
import type { AuthorBreakdown, MonthlyShare, RepositoryResult } from '@cadence-detect/plugin-sdk';
import { aggregateOrganization, renderOrganizationText } from '../src/index.js';

/** The fields of a repository result the organization view reads; the rest as a result has them. */
function repositoryResult(parts: {
  ai_share: number;
  scored: number;
  total: number;
  flagged: number;
  attributed: number;
  assistants?: Record<string, number>;
  authors: AuthorBreakdown[];
  months?: MonthlyShare[];
}): RepositoryResult {
  return {
    source_id: 'x',
    source_type: 'git',
    repo: 'x',
    branch: 'main',
    head_commit: 'a'.repeat(40),
    total_commits: parts.total,
    suspicious_commits: parts.flagged,
    suspicions: [],
    timeline: [],
    assessment: parts.ai_share >= 0.5 ? 'likely_ai_generated' : parts.ai_share >= 0.15 ? 'suspicious' : 'clean',
    ai_share: parts.ai_share,
    scored_commits: parts.scored,
    attributed_commits: parts.attributed,
    automation_commits: 0,
    assistants: parts.assistants ?? {},
    authors: parts.authors,
    months: parts.months ?? [],
    assessment_bands: { suspicious: 0.15, likely_ai_generated: 0.5 },
    scoring: 'model',
    flag_at: 0.42,
    thresholds: {
      suspicious_additions: 500,
      suspicious_deletions: 1000,
      max_additions_per_min: 100,
      max_deletions_per_min: 500,
      min_time_delta_seconds: 60,
    },
    overall_score: parts.ai_share,
    suspicion_score: parts.ai_share,
    detections: [],
    strategy_results: [],
    metrics: {},
  } as RepositoryResult;
}

const author = (
  name: string,
  email: string,
  commits: number,
  share: number,
  extra: Partial<AuthorBreakdown> = {},
): AuthorBreakdown => ({
  author: name,
  email,
  commits,
  attributed: 0,
  flagged: 0,
  share,
  scored_commits: commits,
  assistants: {},
  ...extra,
});

describe('the organization result', () => {
  const big = repositoryResult({
    ai_share: 0.1,
    scored: 2000,
    total: 2100,
    flagged: 40,
    attributed: 10,
    assistants: { 'Claude Code': 10 },
    authors: [
      author('Ada', 'ada@example.test', 1500, 0.05),
      author('Bo', 'BO@example.test', 500, 0.25, { attributed: 10, flagged: 30, assistants: { 'Claude Code': 10 } }),
    ],
    months: [
      {
        month: '2025-01',
        commits: 1000,
        scored_commits: 1000,
        explicit_share: 0,
        inferred_share: 0.05,
        assistants: {},
      },
      {
        month: '2025-02',
        commits: 1100,
        scored_commits: 1000,
        explicit_share: 0.01,
        inferred_share: 0.14,
        assistants: { 'Claude Code': 10 },
      },
    ],
  });
  const small = repositoryResult({
    ai_share: 0.9,
    scored: 20,
    total: 20,
    flagged: 18,
    attributed: 18,
    assistants: { 'Claude Code': 12, Cursor: 6 },
    authors: [
      author('Bo Example', 'bo@example.test', 20, 0.9, {
        attributed: 18,
        flagged: 18,
        assistants: { 'Claude Code': 12, Cursor: 6 },
      }),
    ],
    months: [
      {
        month: '2025-02',
        commits: 20,
        scored_commits: 20,
        explicit_share: 0.9,
        inferred_share: 0,
        assistants: { 'Claude Code': 12, Cursor: 6 },
      },
    ],
  });
  const org = aggregateOrganization(
    'github:acme',
    [
      { repository: 'acme/big', url: 'https://github.com/acme/big.git', result: big },
      { repository: 'acme/small', url: 'https://github.com/acme/small.git', result: small, report: 'acme-small.html' },
      {
        repository: 'acme/gone',
        url: 'https://github.com/acme/gone.git',
        error: { code: 'ERR_GIT_CLONE_FAILED', message: 'Repository not found' },
      },
    ],
    { now: new Date('2026-11-26T00:00:00Z') },
  );

  it('weighs repositories by their scored commits, not one each', () => {
    // (0.1 x 2000 + 0.9 x 20) / 2020, where a mean of the two would say 0.5.
    expect(org.ai_share).to.equal(0.108);
    // The pooled share reads clean, but one repository is not: the badge never says clean over it.
    expect(org.assessment).to.equal('suspicious');
    expect(org.by_assessment).to.deep.equal({
      likely_ai_generated: [{ repository: 'acme/small', ai_share: 0.9 }],
      suspicious: [],
      clean: [{ repository: 'acme/big', ai_share: 0.1 }],
    });
    expect(org).to.include({ total_commits: 2120, scored_commits: 2020, flagged: 58, attributed: 28 });
    expect(org.assistants).to.deep.equal({ 'Claude Code': 22, Cursor: 6 });
    expect(org.counts).to.deep.equal({ listed: 3, analyzed: 2, failed: 1 });
  });

  it('reports a failed repository with its error code and keeps the rest', () => {
    const gone = org.repositories.find((r) => r.repository === 'acme/gone')!;
    expect(gone).to.include({ assessment: null, ai_share: null, total_commits: 0 });
    expect(gone.error).to.deep.equal({ code: 'ERR_GIT_CLONE_FAILED', message: 'Repository not found' });
    expect(org.repositories.find((r) => r.repository === 'acme/small')).to.include({
      report: 'acme-small.html',
      error: null,
    });
  });

  it('merges an author\u2019s identities by e-mail across repositories, counting their commits exactly', () => {
    const bo = org.authors.find((a) => a.email.toLowerCase() === 'bo@example.test')!;
    expect(bo).to.include({ commits: 520, attributed: 28, flagged: 48, scored_commits: 520 });
    expect(bo.share).to.equal(Math.round(((0.25 * 500 + 0.9 * 20) / 520) * 1000) / 1000);
    expect(bo.assistants).to.deep.equal({ 'Claude Code': 22, Cursor: 6 });
    expect(bo.repositories).to.deep.equal(['acme/big', 'acme/small']);
    expect(org.authors.map((a) => a.commits)).to.deep.equal([1500, 520]);
  });

  it('merges one person\u2019s identities across repositories: a shared name or GitHub no-reply login, never a generic name', () => {
    const one = repositoryResult({
      ai_share: 0.1,
      scored: 30,
      total: 30,
      flagged: 0,
      attributed: 0,
      authors: [author('Grace Hopper', 'grace@work.example', 20, 0.1), author('root', 'root@host-a.local', 10, 0)],
    });
    const two = repositoryResult({
      ai_share: 0.2,
      scored: 30,
      total: 30,
      flagged: 0,
      attributed: 0,
      authors: [
        author('Grace Hopper', '1234+grace-h@users.noreply.github.com', 15, 0.2),
        author('grace-h', 'grace-h@users.noreply.github.com', 5, 0.2),
        author('root', 'root@host-b.local', 10, 0),
      ],
    });
    const merged = aggregateOrganization('github:acme', [
      { repository: 'acme/one', url: 'u1', result: one },
      { repository: 'acme/two', url: 'u2', result: two },
    ]);
    expect(merged.authors.map((a) => [a.author, a.email, a.commits, a.repositories])).to.deep.equal([
      ['Grace Hopper', 'grace@work.example', 40, ['acme/one', 'acme/two']],
      ['root', 'root@host-a.local', 10, ['acme/one']],
      ['root', 'root@host-b.local', 10, ['acme/two']],
    ]);
  });

  it('merges months by their scored commits, so each month\u2019s parts still add up', () => {
    expect(org.months.map((m) => [m.month, m.commits, m.scored_commits])).to.deep.equal([
      ['2025-01', 1000, 1000],
      ['2025-02', 1120, 1020],
    ]);
    const february = org.months[1]!;
    expect(february.explicit_share).to.equal(Math.round(((0.01 * 1000 + 0.9 * 20) / 1020) * 1000) / 1000);
    expect(february.explicit_share + february.inferred_share).to.be.closeTo((0.15 * 1000 + 0.9 * 20) / 1020, 0.0015);
    expect(february.assistants).to.deep.equal({ 'Claude Code': 22, Cursor: 6 });
  });

  it('sums the repositories\u2019 lines at HEAD (not their shares) into the organization\u2019s code share', () => {
    const withLines = (
      result: RepositoryResult,
      lines: { counted: number; explicit: number; inferred: number; automation: number; outside: number },
    ): RepositoryResult => ({
      ...result,
      lines: {
        head: 'a'.repeat(40),
        excluded: 0,
        binary_files: 0,
        assistants: {},
        directories: [],
        authors: [],
        ...lines,
        human: lines.counted - lines.explicit - lines.inferred - lines.automation - lines.outside,
        share: (lines.explicit + lines.inferred) / (lines.counted - lines.automation - lines.outside),
      },
    });
    const coded = aggregateOrganization('github:acme', [
      {
        repository: 'acme/big',
        url: 'u1',
        result: withLines(big, { counted: 10_000, explicit: 500, inferred: 499.5, automation: 0, outside: 0 }),
      },
      {
        repository: 'acme/small',
        url: 'u2',
        result: withLines(small, { counted: 1_000, explicit: 900, inferred: 0, automation: 100, outside: 0 }),
      },
      { repository: 'acme/old', url: 'u3', result: big },
    ]);
    // (500 + 499.5 + 900) / (11,000 - 100): where the two shares' mean would say 0.55.
    expect(coded.lines).to.deep.equal({
      counted: 11_000,
      explicit: 1_400,
      inferred: 499.5,
      automation: 100,
      human: 9_000.5,
      outside: 0,
      share: 0.1743,
      repositories: 2,
    });
    expect(coded.repositories.find((r) => r.repository === 'acme/small')!.lines).to.include({
      counted: 1_000,
      share: 1,
    });
    expect(coded.repositories.find((r) => r.repository === 'acme/old')).to.not.have.property('lines');
    expect(renderOrganizationText(coded)).to.contain(
      'Code at HEAD: 17% assistant-made of 11000 lines in 2 of 3 repositories (summed)',
    );
    expect(org).to.not.have.property('lines');
  });

  it('sums the repositories\u2019 old lines into the organization\u2019s floor for lines, and says it', () => {
    const floor = (lines: number, inferred: number, commits: number): RepositoryResult => ({
      ...big,
      lines: {
        head: 'a'.repeat(40),
        counted: 2 * lines,
        excluded: 0,
        binary_files: 0,
        explicit: 0,
        inferred,
        automation: 0,
        human: 2 * lines - inferred,
        outside: 0,
        share: inferred / (2 * lines),
        assistants: {},
        directories: [],
        authors: [],
        era_check: { before: '2021-06-29', commits, lines, inferred, share: inferred / lines },
      },
    });
    const coded = aggregateOrganization('github:acme', [
      { repository: 'acme/a', url: 'u1', result: floor(300, 6, 25) },
      { repository: 'acme/b', url: 'u2', result: floor(100, 14, 30) },
    ]);
    expect(coded.lines!.era_check).to.deep.equal({
      before: '2021-06-29',
      commits: 55,
      lines: 400,
      inferred: 20,
      share: 0.05,
    });
    expect(renderOrganizationText(coded)).to.contain(
      'False-alarm floor for lines: the 400 lines written before assistants existed (before 2021-06-29) read 5.0% assistant-made',
    );
  });

  it('keeps the pooled band when every repository agrees with it, and names each band\u2019s repositories', () => {
    const allClean = aggregateOrganization('github:acme', [{ repository: 'acme/big', url: 'u', result: big }]);
    expect(allClean.assessment).to.equal('clean');
    const mixed = aggregateOrganization('github:acme', [
      { repository: 'acme/big', url: 'u1', result: big },
      {
        repository: 'acme/mid',
        url: 'u2',
        result: repositoryResult({ ai_share: 0.3, scored: 100, total: 100, flagged: 30, attributed: 0, authors: [] }),
      },
    ]);
    expect(mixed.assessment).to.equal('suspicious');
    expect(renderOrganizationText(mixed).split('\n')[0]).to.equal(
      'Verdict: suspicious: 2 repositories: 1 suspicious (acme/mid 30%), 1 clean',
    );
  });

  it('reads as text with the verdict first and the failure named by its code', () => {
    const text = renderOrganizationText(org);
    expect(text.split('\n').slice(0, 2)).to.deep.equal([
      'Verdict: suspicious: 2 repositories: 1 likely_ai_generated (acme/small 90%), 1 clean',
      'Pooled: assistant share 11% of 2020 scored commits in 2 of 3 repositories (58 flagged, 28 attributed); the pooled share alone reads clean, but not every repository is',
    ]);
    expect(text).to.contain('acme/gone').and.to.contain('failed: ERR_GIT_CLONE_FAILED: Repository not found');
    expect(text).to.contain('2025-02');
  });

  it('keeps a forge\u2019s names on one line in the text (a repository named with a terminal escape)', () => {
    const hostile = aggregateOrganization('github:acme', [
      { repository: 'acme/\u001b[2Jx\u202e', url: 'u', error: { code: 'ERR_GIT_CLONE_FAILED', message: 'a\nb' } },
    ]);
    const text = renderOrganizationText(hostile);
    // eslint-disable-next-line no-control-regex -- ESC, which starts a terminal escape
    expect(text).to.not.match(/[\u001b\u202e]/);
    expect(text).to.contain('failed: ERR_GIT_CLONE_FAILED: a b');
  });
});
