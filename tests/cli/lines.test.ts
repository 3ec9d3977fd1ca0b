import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runCadence, runGit, type TempDir } from '@cadence-detect/test-support';

const T0 = Date.UTC(2025, 0, 1, 12) / 1000;

/** The lines at HEAD in the real CLI process: the text report's lines, and --no-lines. */
describe('cadence analyze: code at HEAD and --no-lines', function () {
  this.timeout(60_000);
  let work: TempDir;
  let dir: string;

  before(async () => {
    work = await makeTempDir('cadence-cli-lines-');
    dir = path.join(work.path, 'repo');
    await mkdir(dir);
    await createRepository(dir, [
      { message: 'Initial import', date: T0, files: { 'a.txt': 'one\ntwo\nthree\n' } },
      {
        message: 'Add the helper\n\nCo-authored-by: Claude <noreply@anthropic.com>\n',
        date: T0 + 86_400,
        files: { 'b.txt': 'x\ny\n' },
      },
    ]);
  });
  after(() => work.remove());

  it('prints the share of the code at HEAD and how it lasted; --json carries lines and survival', async () => {
    const text = await runCadence(['analyze', dir], { cwd: work.path });
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(/^Code at HEAD: \d+% assistant-made \(2 explicit \+ \d+ inferred of 5 lines\)$/m);
    expect(text.stdout).to.match(/^Does it last: assistant lines 100% surviving, 0% reworked within 14 days; human /m);
    expect(text.stdout).to.match(
      /^False-alarm floor for lines: none: fewer than 20 commits from before assistants existed/m,
    );
    const json = await runCadence(['analyze', dir, '--json'], { cwd: work.path });
    const result = JSON.parse(json.stdout) as {
      lines: { counted: number; explicit: number; era_check: unknown };
      survival: { assistant: { added: number } };
      metrics: Record<string, number>;
    };
    expect(result.lines).to.deep.include({ counted: 5, explicit: 2, era_check: null });
    expect(result.survival.assistant.added).to.equal(2);
    // The commit model read its code tokens in the same pass.
    expect(result.metrics['commit-model_code_tokens_read']).to.equal(1);
  });

  it('--no-lines: no lines in the result, and the report says why', async () => {
    const json = await runCadence(['analyze', dir, '--json', '--no-lines'], { cwd: work.path });
    expect(json.code, json.stderr).to.equal(0);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).to.not.have.property('lines');
    expect(result.lines_skipped).to.equal('not asked for (--no-lines)');
    // Without lines the commit model has no code tokens: it judges without them.
    expect((result.metrics as Record<string, number>)['commit-model_code_tokens_read']).to.equal(0);
    const text = await runCadence(['analyze', dir, '--no-lines'], { cwd: work.path });
    expect(text.stdout).to.contain('Code at HEAD: not counted (not asked for (--no-lines))');
  });

  it("line records: the text line and the report say what they named, and a skipped record's reason is shown as text", async () => {
    const noted = path.join(work.path, 'noted');
    await mkdir(noted);
    const repo = await createRepository(noted, [
      { message: 'Initial import', date: T0, files: { 'a.txt': 'one\ntwo\nthree\n' } },
      { message: 'Add more', date: T0 + 86_400, files: { 'a.txt': 'one\ntwo\nthree\nfour\nfive\n' } },
    ]);
    const log = `a.txt\n  s_aaaaaaaaaaaaaa::t_bbbbbbbbbbbbbb 4\n---\n${JSON.stringify({ schema_version: 'authorship/3.0.0', base_commit_sha: '', prompts: {}, sessions: { s_aaaaaaaaaaaaaa: { agent_id: { tool: 'cursor', id: 'x', model: 'm' } } } })}`;
    await runGit(noted, ['notes', '--ref=ai', 'add', '-m', log, repo.hashes[1]!]);
    await runGit(noted, [
      'notes',
      '--ref=ai',
      'add',
      '-m',
      'a.txt\n  s_a::t_b <img/src=x/onerror=alert(1)>\n---\n{"schema_version":"authorship/3.0.0"}',
      repo.hashes[0]!,
    ]);
    const text = await runCadence(['analyze', noted], { cwd: work.path });
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(
      /^Code at HEAD: 20% assistant-made \(1 explicit \+ 0 inferred of 5 lines; 1 named by line records, 1 records skipped\)$/m,
    );
    const report = path.join(work.path, 'noted.html');
    const html = await runCadence(['analyze', noted, '-o', report], { cwd: work.path });
    expect(html.code, html.stderr).to.equal(0);
    const page = await readFile(report, 'utf8');
    expect(page).to.match(
      /<p id="code-records">Line records: 1 commits with a git-ai authorship log and 0 Agent Trace records name 1 of these lines exactly/,
    );
    expect(page).to.contain('line ranges &quot;&lt;img/src=x/onerror=alert(1)&gt;&quot; are malformed');
    expect(page).to.not.contain('<img/src');
  });
});
