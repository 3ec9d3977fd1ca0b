import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  makeTempDir,
  runCadence,
  runGit,
  startGitDaemon,
  type GitDaemon,
  type TempDir,
} from '@cadence-detect/test-support';

const T0 = Date.UTC(2025, 4, 5, 9) / 1000;
const NOTE = [
  'src/main.txt',
  '  s_c9883b05a2487d::t_9f8e7d6c5b4a32 1-40',
  '---',
  JSON.stringify({
    schema_version: 'authorship/3.0.0',
    base_commit_sha: 'a'.repeat(40),
    prompts: {},
    sessions: { s_c9883b05a2487d: { agent_id: { tool: 'claude', id: 'x', model: 'claude-sonnet-4-5' } } },
  }),
].join('\n');

interface Report {
  attributed_commits: number;
  assistants: Record<string, number>;
  lines?: {
    explicit: number;
    assistants: Record<string, number>;
    records?: { git_ai: number; agent_trace: number; marked: number };
  };
  detections: { strategy: string; commit?: string; message: string }[];
}

const TRACE = {
  version: '0.1.0',
  id: 't1',
  timestamp: '2025-05-05T09:00:00Z',
  tool: { name: 'codex' },
  files: [
    {
      path: 'src/main.txt',
      conversations: [{ contributor: { type: 'ai' }, ranges: [{ start_line: 1, end_line: 2 }] }],
    },
  ],
};

describe('Git AI notes of a cloned repository (refs/notes/ai over git://)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let notedCommit: string;

  before(async () => {
    work = await makeTempDir('cadence-notes-remote-');
    const served = path.join(work.path, 'served');
    await mkdir(served);
    for (const name of ['noted', 'plain']) {
      const dir = path.join(work.path, name);
      await mkdir(dir);
      const repo = await createRepository(dir, [
        { message: 'Start', date: T0, addLines: 5 },
        { message: 'Add the parser', date: T0 + 3600, addLines: 40 },
      ]);
      if (name === 'noted') {
        notedCommit = repo.hashes[1]!;
        await repo.git(['notes', '--ref=ai', 'add', '-m', NOTE, notedCommit]);
        await repo.git(['notes', '--ref=agent-trace', 'add', '-m', JSON.stringify(TRACE), repo.hashes[0]!]);
      }
      const target = await exportRepository(served, `acme/${name}.git`, dir);
      // A bare clone takes branches and tags only: the notes ref is pushed as a forge would keep it.
      if (name === 'noted')
        await runGit(dir, [
          'push',
          '--quiet',
          target,
          'refs/notes/ai:refs/notes/ai',
          'refs/notes/agent-trace:refs/notes/agent-trace',
        ]);
    }
    daemon = await startGitDaemon(served);
  });
  after(async () => {
    await daemon?.close();
    await work?.remove();
  });

  it('fetches the notes ref with the clone and attributes the noted commit', async () => {
    const run = await runCadence(['analyze', daemon.url('acme/noted.git'), '--json'], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.attributed_commits).to.equal(1);
    expect(report.assistants).to.deep.equal({ 'Claude Code': 1 });
    const detection = report.detections.find((d) => d.strategy === 'attribution');
    expect(detection?.commit).to.equal(notedCommit);
    expect(detection?.message).to.contain('refs/notes/ai: 40 lines in 1 file by claude (claude-sonnet-4-5)');
    // Both notes refs come with the clone and name lines at HEAD: the log's 1-40 in the commit
    // that added lines 6-45 holds 35 of its own lines; the trace names lines 1-2 of the first commit.
    expect(report.lines?.records).to.deep.include({ git_ai: 1, agent_trace: 1, marked: 37 });
    expect(report.lines?.assistants).to.deep.equal({ 'Claude Code': 35, 'OpenAI Codex': 2 });
  });

  it('treats a repository without the ref as normal: no attribution and no warning', async () => {
    const run = await runCadence(['analyze', daemon.url('acme/plain.git'), '--json'], {
      cwd: work.path,
      env: { LOG_LEVEL: 'debug' },
    });
    expect(run.code, run.stderr).to.equal(0);
    expect((JSON.parse(run.stdout) as Report).attributed_commits).to.equal(0);
    expect(run.stderr).to.not.contain('could not fetch AI notes');
  });
});
