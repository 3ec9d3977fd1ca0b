import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AnalysisRequest, AnalysisResult, RepositoryResult } from '@cadence-detect/plugin-sdk';
import {
  createRepository,
  eventually,
  makeTempDir,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';
import { attributionEngine } from './attribution-engine.js';

const DAY = 86_400;
const T0 = Date.UTC(2025, 0, 1, 12) / 1000;
const ADA = { name: 'Ada Example', email: 'ada@example.test' };
const BOB = { name: 'Bob Example', email: 'bob@example.test' };
const BOT = { name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' };
const CLAUDE = '\n\nCo-authored-by: Claude <noreply@anthropic.com>\n';

const lines = (prefix: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
const text = (rows: string[]): string => `${rows.join('\n')}\n`;

/**
 * The engine with explicit attribution only: no model and no heuristic strategy, so every commit
 * that is not attributed or automation has probability 0 and each number below is exact.
 */
async function analyze(request: AnalysisRequest, maxLineFiles?: number, deadline?: number): Promise<RepositoryResult> {
  const engine = attributionEngine(maxLineFiles === undefined ? {} : { limits: { max_line_files: maxLineFiles } });
  return (await engine.analyze(request, {
    network: null,
    allowLocalPaths: true,
    ...(deadline === undefined ? {} : { job: { id: 'lines-test', url: null, forge: null, deadline } }),
  })) as RepositoryResult;
}

describe('engine: lines at HEAD, survival and rework (histories with known answers)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: FixtureRepository;

  before(async () => {
    work = await makeTempDir('cadence-lines-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const a = lines('a', 1, 10);
    const g = lines('g', 1, 8);
    repo = await createRepository(dir, [
      // C1, Ada: a human file, and what line counts leave out: vendored, a lock file, a generated file, a -diff file, a binary.
      {
        message: 'Initial import',
        date: T0,
        author: ADA,
        files: {
          'src/a.txt': text(a),
          'vendor/lib.js': text(lines('v', 1, 5)),
          'package-lock.json': text(lines('l', 1, 7)),
          'gen/out.txt': text(lines('o', 1, 4)),
          'data.csv': text(lines('d', 1, 3)),
          'logo.png': '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0',
          '.gitattributes': 'gen/*.txt linguist-generated\ndata.csv -diff\n',
        },
      },
      // C2, day 1, attributed: rewrites a3..a6 of Ada's file (human rework 4) and adds an 8-line file.
      {
        message: `Rework the parser${CLAUDE}`,
        date: T0 + DAY,
        author: ADA,
        files: {
          'src/a.txt': text([...a.slice(0, 2), 'x1', 'x2', 'x3', 'x4', ...a.slice(6)]),
          'src/agent.txt': text(g),
        },
      },
      // C3, day 5, Bob: renames the assistant's file and rewrites two of its lines (within 14 days: rework 2).
      {
        message: 'Move the agent code',
        date: T0 + 5 * DAY,
        author: BOB,
        files: { 'src/agent.txt': null, 'lib/agent.txt': text(['g1', 'b1', 'b2', ...g.slice(3)]) },
      },
      // C4, day 40, Bob: rewrites one more line of it (39 days on: not rework).
      {
        message: 'Tune the agent code',
        date: T0 + 40 * DAY,
        author: BOB,
        files: { 'lib/agent.txt': text(['g1', 'b1', 'b2', 'g4', 'g5', 'b3', 'g7', 'g8']) },
      },
      // C5, day 41, Bob: whitespace only (a1 indented): the line stays Ada's, no rework.
      {
        message: 'Indent',
        date: T0 + 41 * DAY,
        author: BOB,
        files: { 'src/a.txt': text(['  a1', 'a2', 'x1', 'x2', 'x3', 'x4', ...a.slice(6)]) },
      },
      // C6, day 42: automation.
      { message: 'Bump deps', date: T0 + 42 * DAY, author: BOT, files: { 'deps.txt': text(lines('p', 1, 3)) } },
      // C7, day 50, Ada: rewrites x1 (49 days after C2: not rework).
      {
        message: 'Fix a typo',
        date: T0 + 50 * DAY,
        author: ADA,
        files: { 'src/a.txt': text(['  a1', 'a2', 'y1', 'x2', 'x3', 'x4', ...a.slice(6)]) },
      },
    ]);
  });
  after(() => work.remove());

  it('counts every line at HEAD by the commit that wrote it: explicit, automation, human; excluded and binary apart', async () => {
    const result = await analyze({ kind: 'repository', url: repo.dir });
    const l = result.lines!;
    expect(l, result.lines_skipped).to.exist;
    expect(l.head).to.equal(repo.hashes.at(-1));
    // src/a.txt 10 + lib/agent.txt 8 + deps.txt 3 + .gitattributes 2.
    expect(l.counted).to.equal(23);
    // vendor/lib.js 5, package-lock.json 7, gen/out.txt 4 (linguist-generated), data.csv 3 (-diff).
    expect(l.excluded).to.equal(19);
    expect(l.binary_files).to.equal(1);
    // C2's x2..x4 and g1, g4, g5, g7, g8.
    expect(l.explicit).to.equal(8);
    expect(l.automation).to.equal(3);
    expect(l.inferred).to.equal(0);
    expect(l.outside).to.equal(0);
    expect(l.human).to.equal(12);
    expect(l.explicit + l.inferred + l.automation + l.human + l.outside).to.equal(l.counted);
    expect(l.share).to.equal(0.4);
    expect(l.assistants).to.deep.equal({ [Object.keys(l.assistants)[0] ?? 'none']: 8 });
    expect(l.directories).to.deep.equal([
      { path: 'src', counted: 10, share: 0.3 },
      { path: 'lib', counted: 8, share: 0.625 },
      { path: '.', counted: 5, share: 0 },
    ]);
    const byEmail = Object.fromEntries(l.authors.map((a) => [a.email, a]));
    expect(byEmail[ADA.email]).to.deep.equal({ name: ADA.name, email: ADA.email, lines: 17, share: 0.4706 });
    expect(byEmail[BOB.email]).to.deep.include({ lines: 3, share: 0 });
    expect(byEmail[BOT.email]).to.deep.include({ lines: 3, share: null });
  });

  it('survival and rework: added, still at HEAD, reworked within 14 days, by month; automation left out', async () => {
    const { survival } = await analyze({ kind: 'repository', url: repo.dir });
    expect(survival!.assistant).to.deep.equal({ added: 12, surviving: 8, reworked_14d: 2 });
    // C1 12, C3 2, C4 1, C5 1 (a whitespace edit adds a line that never survives as its own), C7 1.
    expect(survival!.human).to.deep.equal({ added: 17, surviving: 12, reworked_14d: 4 });
    expect(survival!.months).to.deep.equal([
      {
        month: '2025-01',
        assistant_added: 12,
        assistant_surviving: 8,
        assistant_reworked_14d: 2,
        human_added: 14,
        human_surviving: 10,
        human_reworked_14d: 4,
      },
      {
        month: '2025-02',
        assistant_added: 0,
        assistant_surviving: 0,
        assistant_reworked_14d: 0,
        human_added: 3,
        human_surviving: 2,
        human_reworked_14d: 0,
      },
    ]);
  });

  it('a range: lines from before it are outside, and the share leaves them out', async () => {
    const result = await analyze({
      kind: 'repository',
      url: repo.dir,
      range: { before: repo.hashes[3]!, after: repo.hashes.at(-1)! },
    });
    const l = result.lines!;
    // In range: C5 (no line of its own), C6 (3, automation), C7 (1). The rest, 19 lines, is outside.
    expect(l).to.deep.include({ counted: 23, outside: 19, automation: 3, explicit: 0, human: 1, share: 0 });
    expect(result.survival!.human).to.deep.equal({ added: 2, surviving: 1, reworked_14d: 0 });
  });

  it('limits.max_line_files bounds the files to blame: a whole history needs none (one pass), a range over more is not blamed', async () => {
    const whole = await analyze({ kind: 'repository', url: repo.dir }, 3);
    expect(whole.lines?.counted).to.equal(23);
    const result = await analyze(
      { kind: 'repository', url: repo.dir, range: { before: repo.hashes[0]!, after: repo.hashes.at(-1)! } },
      0,
    );
    expect(result).to.not.have.property('lines');
    expect(result.lines_skipped).to.match(
      /^the tree holds \d+ counted text files to blame, more than limits\.max_line_files \(0\)$/,
    );
    expect(result.attributed_commits).to.equal(1);
  });

  it('a job whose time is running short drops the lines with a reason and keeps the verdict', async () => {
    // Five seconds left, less than the ten the verdict keeps: the lines are not waited for.
    const result = await analyze({ kind: 'repository', url: repo.dir }, undefined, Date.now() + 5_000);
    expect(result).to.not.have.property('lines');
    expect(result.lines_skipped).to.equal("the job's time ran short: lines were dropped to keep the verdict");
    expect(result.attributed_commits).to.equal(1);
    // With time to spare, the same job counts them.
    expect(
      (await analyze({ kind: 'repository', url: repo.dir }, undefined, Date.now() + 120_000)).lines?.counted,
    ).to.equal(23);
  });

  it('keeps no result whose lines were dropped for time: the next identical job counts them', async () => {
    const kept = new Map<string, AnalysisResult>();
    const cache = {
      get: (key: string) => kept.get(key),
      set: (key: string, result: AnalysisResult) => void kept.set(key, result),
    };
    const engine = attributionEngine({});
    const job = (deadline: number) => ({ id: 'lines-cache', url: null, forge: null, deadline });
    const request = { kind: 'repository' as const, url: repo.dir };
    const short = await engine.analyze(request, {
      network: null,
      allowLocalPaths: true,
      cache,
      job: job(Date.now() + 5_000),
    });
    expect((short as RepositoryResult).lines_skipped).to.match(/time ran short/);
    expect(kept.size).to.equal(0);
    const full = await engine.analyze(request, {
      network: null,
      allowLocalPaths: true,
      cache,
      job: job(Date.now() + 120_000),
    });
    expect((full as RepositoryResult).lines?.counted).to.equal(23);
    await eventually(() => kept.size === 1, 'the full result is kept');
  });

  it('--no-lines (lines: false) skips them and says why', async () => {
    const result = await analyze({ kind: 'repository', url: repo.dir, lines: false });
    expect(result).to.not.have.property('lines');
    expect(result).to.not.have.property('survival');
    expect(result.lines_skipped).to.equal('not asked for (--no-lines)');
  });
});

describe('engine: a range reads .gitattributes at its base', function () {
  this.timeout(60_000);

  it('a request that marks its own file linguist-generated still has its lines counted; the whole history honours the mark', async () => {
    const work = await makeTempDir('cadence-lines-attributes-');
    try {
      const dir = path.join(work.path, 'repo');
      await mkdir(dir);
      const repo = await createRepository(dir, [
        { message: 'Initial import', date: T0, author: ADA, files: { 'a.txt': text(lines('a', 1, 3)) } },
        {
          message: `Add the generator${CLAUDE}`,
          date: T0 + DAY,
          author: ADA,
          files: { 'gen.txt': text(lines('g', 1, 4)), '.gitattributes': 'gen.txt linguist-generated\n' },
        },
      ]);
      const ranged = await analyze({
        kind: 'repository',
        url: repo.dir,
        range: { before: repo.hashes[0]!, after: repo.hashes[1]! },
      });
      // gen.txt 4 + .gitattributes 1, both the request's; a.txt is outside it.
      expect(ranged.lines).to.deep.include({ counted: 8, excluded: 0, explicit: 5, outside: 3 });
      const whole = await analyze({ kind: 'repository', url: repo.dir });
      expect(whole.lines).to.deep.include({ counted: 4, excluded: 4, explicit: 1 });
    } finally {
      await work.remove();
    }
  });
});

describe('engine: lines through a merge', function () {
  this.timeout(60_000);
  let work: TempDir;

  it('a side branch\u2019s lines at HEAD are its commits\u2019, and their rework after the merge is found', async () => {
    work = await makeTempDir('cadence-lines-merge-');
    try {
      const dir = path.join(work.path, 'repo');
      await mkdir(dir);
      const repo = await createRepository(dir, [
        { message: 'Initial import', date: T0, author: ADA, files: { 'main.txt': text(lines('m', 1, 4)) } },
      ]);
      await repo.git(['checkout', '-q', '-b', 'side']);
      const side = await repo.commit({
        message: `Add the side file${CLAUDE}`,
        date: T0 + DAY,
        author: ADA,
        files: { 'side.txt': text(lines('s', 1, 6)) },
      });
      await repo.git(['checkout', '-q', repo.branch]);
      await repo.commit({
        message: 'Main work',
        date: T0 + 2 * DAY,
        author: BOB,
        files: { 'main.txt': text([...lines('m', 1, 4), 'm5']) },
      });
      await repo.git([
        '-c',
        'user.name=Bob Example',
        '-c',
        'user.email=bob@example.test',
        'merge',
        '-q',
        '--no-ff',
        '-m',
        'Merge side',
        'side',
      ]);
      // Three days after the side commit, Bob deletes two of its lines: rework, found by blaming through the merge.
      await repo.commit({
        message: 'Trim',
        date: T0 + 4 * DAY,
        author: BOB,
        files: { 'side.txt': text(['s1', 's2', 's5', 's6']) },
      });
      const result = await analyze({ kind: 'repository', url: repo.dir });
      expect(side).to.be.a('string');
      expect(result.lines).to.deep.include({ counted: 9, explicit: 4, human: 5, outside: 0, share: 0.4444 });
      expect(result.survival!.assistant).to.deep.equal({ added: 6, surviving: 4, reworked_14d: 2 });
    } finally {
      await work.remove();
    }
  });
});

describe('engine: line-level records (git-ai v3 notes, Agent Trace) name lines exactly', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: FixtureRepository;
  const CURSOR_LOG = (ranges: string): string =>
    [
      'src/a.txt',
      `  s_aaaaaaaaaaaaaa::t_bbbbbbbbbbbbbb ${ranges}`,
      '  h_cccccccccccccc 6,12',
      '---',
      JSON.stringify(
        {
          schema_version: 'authorship/3.0.0',
          base_commit_sha: '',
          prompts: {},
          sessions: { s_aaaaaaaaaaaaaa: { agent_id: { tool: 'cursor', id: 'c1', model: 'm' }, human_author: null } },
        },
        null,
        2,
      ),
    ].join('\n');

  before(async () => {
    work = await makeTempDir('cadence-lines-records-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const a = lines('a', 1, 10);
    repo = await createRepository(dir, [
      // R1, Ada: ten human lines.
      { message: 'Initial import', date: T0, author: ADA, files: { 'src/a.txt': text(a) } },
      // R2, day 1, Ada, no trailer: a3..a6 become n1..n4, n5 and n6 appended. Its git-ai note names lines 3-5 and 11 (n1-n3, n5) Cursor's.
      {
        message: 'Rewrite the middle',
        date: T0 + DAY,
        author: ADA,
        files: { 'src/a.txt': text([...a.slice(0, 2), 'n1', 'n2', 'n3', 'n4', ...a.slice(6), 'n5', 'n6']) },
      },
      // R3, day 3, Bob: two lines on top, and n2 (an assistant line, two days old) rewritten: assistant rework 1.
      {
        message: 'Header and a fix',
        date: T0 + 3 * DAY,
        author: BOB,
        files: { 'src/a.txt': text(['h1', 'h2', 'a1', 'a2', 'n1', 'b1', 'n3', 'n4', ...a.slice(6), 'n5', 'n6']) },
      },
      // R4, day 10, Bob: a new file, no trailer; an Agent Trace record in the next commit names lines 2-4 (ai) and 6 (mixed).
      { message: 'Add b', date: T0 + 10 * DAY, author: BOB, files: { 'src/b.txt': text(lines('q', 1, 6)) } },
    ]);
    const [, r2, r3, r4] = repo.hashes as [string, string, string, string];
    const trace = {
      version: '0.1.0',
      id: '550e8400-e29b-41d4-a716-446655440000',
      timestamp: '2025-01-12T12:00:00Z',
      vcs: { type: 'git', revision: r4 },
      tool: { name: 'claude-code' },
      files: [
        {
          path: 'src/b.txt',
          conversations: [
            { contributor: { type: 'ai' }, ranges: [{ start_line: 2, end_line: 4 }] },
            { contributor: { type: 'mixed' }, ranges: [{ start_line: 6, end_line: 6 }] },
            { contributor: { type: 'human' }, ranges: [{ start_line: 1, end_line: 1 }] },
          ],
        },
      ],
    };
    // R5, day 11, Ada: the records file (two lines: one record, one malformed), itself never counted.
    await repo.commit({
      message: 'Record traces',
      date: T0 + 11 * DAY,
      author: ADA,
      files: { '.agent-trace/traces.jsonl': `${JSON.stringify(trace)}\n{"version":"0.1.0","files":"oops"}\n` },
    });
    await repo.git(['notes', '--ref=ai', 'add', '-m', CURSOR_LOG('3-5,11'), r2]);
    // R3's authorship log is malformed (skipped with its reason); its Agent Trace note names h1, h2 (Codex).
    await repo.git(['notes', '--ref=ai', 'add', '-m', 'src/a.txt\n---\n{"schema_version": "authorship/3.0.0", ', r3]);
    const note = {
      version: '0.1.0',
      id: 'x',
      timestamp: '2025-01-04T00:00:00Z',
      tool: { name: 'codex' },
      files: [
        {
          path: 'src/a.txt',
          conversations: [{ contributor: { type: 'ai' }, ranges: [{ start_line: 1, end_line: 2 }] }],
        },
      ],
    };
    await repo.git(['notes', '--ref=agent-trace', 'add', '-m', JSON.stringify(note), r3]);
  });
  after(() => work.remove());

  it('marks exactly the named lines, matched through blame to where they were written; the rest of those commits is their authors\u2019', async () => {
    const result = await analyze({ kind: 'repository', url: repo.dir });
    const l = result.lines!;
    expect(l, result.lines_skipped).to.exist;
    // src/a.txt 14 + src/b.txt 6; the records file (2 lines) is excluded.
    expect(l).to.deep.include({ counted: 20, excluded: 2, binary_files: 0, automation: 0, inferred: 0, outside: 0 });
    // R2: n1, n3, n5 (n2 was rewritten); R3: h1, h2; R4: q2-q4 and q6.
    expect(l.explicit).to.equal(9);
    expect(l.human).to.equal(11);
    expect(l.share).to.equal(0.45);
    // Every record's tool is named one way, as the commit-level attribution names it.
    expect(l.assistants).to.deep.equal({ Cursor: 3, 'OpenAI Codex': 2, 'Claude Code': 4 });
    expect(l.directories).to.deep.equal([{ path: 'src', counted: 20, share: 0.45 }]);
    const byEmail = Object.fromEntries(l.authors.map((x) => [x.email, x]));
    expect(byEmail[ADA.email]).to.deep.include({ lines: 11, share: 0.2727 });
    expect(byEmail[BOB.email]).to.deep.include({ lines: 9, share: 0.6667 });
    const [, , r3] = repo.hashes;
    expect(l.records).to.deep.equal({
      git_ai: 1,
      agent_trace: 2,
      marked: 9,
      skipped: 2,
      skipped_reasons: [
        `refs/notes/ai on ${r3!.slice(0, 12)}: its metadata is not JSON`,
        '.agent-trace/traces.jsonl, line 2: no files array',
      ],
    });
  });

  it('survival: a recorded commit adds its named lines to the assistant and the rest to its author; rework follows the line', async () => {
    const { survival } = await analyze({ kind: 'repository', url: repo.dir });
    // Assistant: R2 4 (n1-n3, n5), R3 2, R4 4 added; n2 reworked by R3 within 14 days.
    expect(survival!.assistant).to.deep.equal({ added: 10, surviving: 9, reworked_14d: 1 });
    // Human: R1 10, R2 2 (n4, n6), R3 1 (b1), R4 2; a3-a6 (R1's, a day old) reworked by R2.
    expect(survival!.human).to.deep.equal({ added: 15, surviving: 11, reworked_14d: 4 });
  });

  it('a range: a recorded commit\u2019s rework is found by blaming the deleting commit, and still follows the line', async () => {
    const result = await analyze({
      kind: 'repository',
      url: repo.dir,
      since: new Date((T0 + 12 * 3600) * 1000).toISOString(),
    });
    expect(result.survival!.assistant).to.deep.equal({ added: 10, surviving: 9, reworked_14d: 1 });
  });
});
