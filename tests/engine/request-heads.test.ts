import { expect } from 'chai';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  makeTempDir,
  runCadence,
  runGit,
  startGitDaemon,
  type FixtureRepository,
  type GitDaemon,
  type TempDir,
} from '@cadence-detect/test-support';

const HOUR = 3600;
const T0 = Date.UTC(2025, 5, 2, 9) / 1000;
const ADA = { name: 'Ada Example', email: 'ada@example.test' };
const BOB = { name: 'Bob Example', email: 'bob@example.test' };
const AGENT = { name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' };

interface Report {
  attributed_commits: number;
  assistants: Record<string, number>;
  metrics: Record<string, number>;
  detections: { strategy: string; commit?: string; message: string; evidence: string; via_request?: number }[];
  suspicions: { commit: string; evidence: string; assistants?: string[] }[];
}

/** Request 7's first version of its parser: a file version only its request head holds. */
const PARSER_DRAFT = 'export function parse(text: string): string[] {\n  return [text];\n}\n';

/**
 * A history of four squash merges: #7's request was written by Copilot's coding agent (a draft
 * then the parser), #8's by Bob, #9's head is kept nowhere, and #10 was Bob's request stacked on
 * #7's branch (its head reaches #7's commits too). Each request's commits stay on a branch of their
 * own, kept under `refs/pull/N/head` as GitHub keeps them; the squash on main is Ada's, with no trailer.
 */
async function squashedHistory(dir: string): Promise<{ repo: FixtureRepository; squashes: Record<number, string> }> {
  const repo = await createRepository(dir, [
    { message: 'Start', date: T0, author: ADA, files: { 'src/start.ts': 'export const start = 1;\n' } },
  ]);
  const squashes: Record<number, string> = {};
  const requests: { number: number; author: typeof ADA; base?: string; files: Record<string, string>[] }[] = [
    {
      number: 7,
      author: AGENT,
      files: [
        { 'src/parser.ts': PARSER_DRAFT },
        {
          'src/parser.ts': 'export function parse(text: string): string[] {\n  return text.split(",");\n}\n',
          'src/parser.test.ts': 'import { parse } from "./parser";\nparse("a,b");\n',
        },
      ],
    },
    { number: 8, author: BOB, files: [{ 'src/format.ts': 'export const format = (n: number) => n.toFixed(2);\n' }] },
    { number: 9, author: BOB, files: [{ 'src/clock.ts': 'export const now = () => Date.now();\n' }] },
    {
      number: 10,
      author: BOB,
      base: 'refs/pull/7/head',
      files: [{ 'src/parser.ts': 'export function parse(text: string): string[] {\n  return text.split(";");\n}\n' }],
    },
  ];
  let time = T0 + 24 * HOUR;
  for (const request of requests) {
    const branch = `request-${request.number}`;
    await repo.git(['checkout', '--quiet', '-b', branch, ...(request.base ? [request.base] : [])]);
    const merged: Record<string, string> = {};
    for (const files of request.files) {
      time += HOUR;
      await repo.commit({ message: `Work on #${request.number}`, date: time, author: request.author, files });
      Object.assign(merged, files);
    }
    const head = (await repo.git(['rev-parse', 'HEAD'])).trim();
    if (request.number !== 9) await repo.git(['update-ref', `refs/pull/${request.number}/head`, head]);
    await repo.git(['checkout', '--quiet', 'main']);
    time += 2 * HOUR;
    squashes[request.number] = await repo.commit({
      message: `Request ${request.number} (#${request.number})`,
      date: time,
      author: ADA,
      files: merged,
    });
    await repo.git(['branch', '--quiet', '-D', branch]);
  }
  // A subject that names #11 without squashing it: #11's head (the agent's) came a day later.
  time += HOUR;
  squashes[11] = await repo.commit({
    message: 'Note the parser follow-up (#11)',
    date: time,
    author: ADA,
    files: { 'NOTES.md': 'Parser follow-up comes next.\n' },
  });
  await repo.git(['checkout', '--quiet', '-b', 'request-11']);
  await repo.commit({ message: 'Follow up', date: time + 24 * HOUR, author: AGENT, files: { 'src/later.ts': 'x\n' } });
  await repo.git(['update-ref', 'refs/pull/11/head', (await repo.git(['rev-parse', 'HEAD'])).trim()]);
  await repo.git(['checkout', '--quiet', 'main']);
  await repo.git(['branch', '--quiet', '-D', 'request-11']);
  return { repo, squashes };
}

describe('squash commits judged by their requests’ own commits (refs/pull/N/head)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let local: string;
  let squashes: Record<number, string>;
  let daemon: GitDaemon;

  before(async () => {
    work = await makeTempDir('cadence-request-heads-');
    local = path.join(work.path, 'local');
    await mkdir(local);
    ({ squashes } = await squashedHistory(local));
    const served = path.join(work.path, 'served');
    await mkdir(served);
    const target = await exportRepository(served, 'acme/squashed.git', local);
    // A bare clone takes branches only: the request heads are pushed as the forge keeps them, and
    // one request no squash names (#5), which the clone has no reason to fetch.
    await runGit(local, [
      'push',
      '--quiet',
      target,
      'refs/pull/7/head:refs/pull/7/head',
      'refs/pull/8/head:refs/pull/8/head',
      'refs/pull/10/head:refs/pull/10/head',
      'refs/pull/11/head:refs/pull/11/head',
    ]);
    await runGit(local, ['push', '--quiet', target, `${squashes[8]!}:refs/pull/5/head`]);
    daemon = await startGitDaemon(served);
  });
  after(async () => {
    await daemon?.close();
    await work?.remove();
  });

  /** A bare copy of the history whose objects are all loose, without the object `rev` names. */
  async function copyWithout(name: string, rev: string): Promise<string> {
    const object = (await runGit(local, ['rev-parse', rev])).trim();
    const copy = path.join(work.path, name);
    await runGit(work.path, ['init', '--quiet', '--bare', '--initial-branch=main', copy]);
    await runGit(copy, ['config', 'receive.unpackLimit', '100000']);
    await runGit(local, ['push', '--quiet', '--mirror', copy]);
    await rm(path.join(copy, 'objects', object.slice(0, 2), object.slice(2)));
    const present = await runGit(copy, ['cat-file', '-e', object]).then(
      () => true,
      () => false,
    );
    expect(present, `${rev} still in the copy`).to.equal(false);
    return copy;
  }

  async function analyze(target: string): Promise<Report> {
    const run = await runCadence(['analyze', target, '--json', '--no-cache'], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    return JSON.parse(run.stdout) as Report;
  }

  function expectCarriedOnly7(report: Report): void {
    const carried = report.detections.filter((d) => d.strategy === 'attribution');
    expect(carried.map((d) => [d.commit, d.via_request, d.evidence])).to.deep.equal([[squashes[7], 7, 'explicit']]);
    expect(carried[0]!.message).to.match(
      /^GitHub Copilot: via pull request #7 \(2 of its 2 commits in refs\/pull\/7\/head\): author/,
    );
    expect(report.assistants).to.deep.equal({ 'GitHub Copilot': 1 });
    expect(report.metrics.attribution_attributed_via_requests).to.equal(1);
    const suspicion = report.suspicions.find((s) => s.commit === squashes[7]);
    expect(suspicion?.evidence).to.equal('explicit');
    expect(suspicion?.assistants).to.deep.equal(['GitHub Copilot']);
  }

  it('reads a local repository’s request heads: the agent’s request carries, a person’s and a missing one do not', async () => {
    expectCarriedOnly7(await analyze(local));
  });

  it('fetches the named requests’ heads with a clone over git://', async () => {
    expectCarriedOnly7(await analyze(daemon.url('acme/squashed.git')));
  });

  it('fetches them with a fresh clone too (mirrors turned off)', async () => {
    const config = path.join(work.path, 'no-mirrors.json');
    await writeFile(config, JSON.stringify({ cache: { repositories_max_size: 0 } }));
    const run = await runCadence(['analyze', daemon.url('acme/squashed.git'), '--json', '--config', config], {
      cwd: work.path,
    });
    expect(run.code, run.stderr).to.equal(0);
    expectCarriedOnly7(JSON.parse(run.stdout) as Report);
  });

  it('reads a request head whose file versions the clone lacks: only who made its commits is read', async () => {
    // The draft's blob is in no commit of main.
    const packed = await copyWithout('missing-blob.git', 'refs/pull/7/head~1:src/parser.ts');
    expectCarriedOnly7(await analyze(packed));
  });

  it('judges the squashes as themselves when the request commits cannot be read, and says so', async () => {
    const broken = await copyWithout('missing-commit.git', 'refs/pull/7/head~1');
    const run = await runCadence(['analyze', broken, '--json', '--no-cache'], {
      cwd: work.path,
      env: { LOG_LEVEL: 'debug' },
    });
    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.detections.filter((d) => d.strategy === 'attribution')).to.deep.equal([]);
    expect(run.stderr).to.contain('request heads not read');
  });

  it('judges the squash as itself once its request head is gone', async () => {
    const copy = path.join(work.path, 'without-heads');
    await runGit(work.path, ['clone', '--quiet', local, copy]);
    const report = await analyze(copy);
    expect(report.detections.filter((d) => d.strategy === 'attribution')).to.deep.equal([]);
    expect(report.attributed_commits).to.equal(0);
    expect(report.metrics.attribution_attributed_via_requests).to.equal(undefined);
  });
});
