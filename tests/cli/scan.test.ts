import { expect } from 'chai';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  burstHistory,
  createRepository,
  exportRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  runGit,
  startGitDaemon,
  startGitHttpServer,
  type FixtureCommit,
  type GitDaemon,
  type TempDir,
} from '@cadence-detect/test-support';

interface Org {
  organization: string;
  ai_share: number;
  assessment: string;
  total_commits: number;
  scored_commits: number;
  counts: { listed: number; analyzed: number; failed: number };
  repositories: {
    repository: string;
    ai_share: number | null;
    total_commits: number;
    error: { code: string } | null;
    report?: string;
  }[];
  authors: { email: string; commits: number; repositories: string[] }[];
  months: { month: string; commits: number }[];
}

interface RepositoryJson {
  ai_share: number;
  scored_commits: number;
  total_commits: number;
}

const SHARED = { name: 'Sam Shared', email: 'sam@example.test' };

describe('cadence scan --repos (the real CLI over git daemon)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let list: string;
  let config: string;

  before(async () => {
    work = await makeTempDir('cadence-scan-');
    const served = path.join(work.path, 'served');
    await mkdir(served);
    const histories: Record<string, FixtureCommit[]> = {
      'acme/api': [
        ...humanHistory(20),
        ...humanHistory(5, Date.UTC(2025, 3, 1) / 1000).map((c) => ({ ...c, author: SHARED })),
      ],
      'acme/web': [
        ...humanHistory(6),
        ...burstHistory(5).map((c) => ({
          ...c,
          author: SHARED,
          message: `${c.message}\n\nCo-Authored-By: Claude <noreply@anthropic.com>`,
        })),
      ],
      'acme/tools': humanHistory(12),
    };
    for (const [name, commits] of Object.entries(histories)) {
      const dir = path.join(work.path, 'src', name);
      await mkdir(dir, { recursive: true });
      await createRepository(dir, commits);
      await exportRepository(served, `${name}.git`, dir);
    }
    daemon = await startGitDaemon(served);
    // Mirrors and kept results in this test's folder, never the machine's shared default.
    config = path.join(work.path, 'cadence.yaml');
    await writeFile(config, `cache:\n  repositories_dir: ${JSON.stringify(path.join(work.path, 'cache'))}\n`);
    list = path.join(work.path, 'repos.txt');
    await writeFile(
      list,
      [
        '# the acme organization',
        daemon.url('acme/api.git'),
        daemon.url('acme/web.git'),
        '',
        `${daemon.url('acme/tools.git')}   # tools`,
        daemon.url('acme/gone.git'),
        'ext::sh -c touch% /tmp/cadence-scan-pwned',
      ].join('\n'),
    );
  });
  after(async () => {
    await daemon?.close();
    await work?.remove();
  });

  const scan = (args: string[]) => runCadence(['scan', ...args, '--config', config], { cwd: work.path });

  it('--help names every forge a scan takes and says the concurrency default once, in words', async () => {
    const help = await runCadence(['scan', '--help'], { cwd: work.path });
    expect(help.code, help.stderr).to.equal(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    for (const target of ['github:<org>', 'gitlab:<group>', 'gitea:<owner>', 'bitbucket:<workspace>'])
      expect(text).to.contain(target);
    expect(text).to.contain('(default: the number of cores)');
    expect(text).to.not.match(/\(default: \d+\)/);
  });

  it('scans every listed repository, reports the failing ones with their codes, and goes on', async () => {
    const run = await scan(['--repos', list, '--concurrency', '2', '-o', 'org.json', '--reports-dir', 'reports']);
    expect(run.code, run.stderr).to.equal(0);
    const org = JSON.parse(await readFile(path.join(work.path, 'org.json'), 'utf8')) as Org;
    expect(org.organization).to.equal('repositories of repos.txt');
    expect(org.counts).to.deep.equal({ listed: 5, analyzed: 3, failed: 2 });
    const byName = new Map(org.repositories.map((r) => [r.repository, r]));
    expect(byName.get('acme/gone')!.error!.code).to.equal('ERR_GIT_CLONE_FAILED');
    expect(org.repositories.find((r) => r.repository.startsWith('ext::'))!.error!.code).to.equal('ERR_INVALID_SOURCE');
    expect(byName.get('acme/api')).to.include({ total_commits: 25, error: null, report: 'reports/acme--api.html' });
    expect((await readdir(path.join(work.path, 'reports'))).sort()).to.deep.equal([
      'acme--api.html',
      'acme--tools.html',
      'acme--web.html',
    ]);
    expect(
      await readFile('/tmp/cadence-scan-pwned').then(
        () => true,
        () => false,
      ),
    ).to.equal(false);
  });

  it('writes the organization page: verdict, monthly share, sortable tables, links to each repository\u2019s report, nothing fetched', async () => {
    const run = await scan(['--repos', list, '-o', 'org.html', '--reports-dir', 'reports']);
    expect(run.code, run.stderr).to.equal(0);
    const page = await readFile(path.join(work.path, 'org.html'), 'utf8');
    expect(page).to.contain('<h1>repositories of repos.txt</h1>');
    expect(page).to.contain('<title>Cadence organization report: repositories of repos.txt</title>');
    expect(page).to.contain('<a href="reports/acme--api.html">acme/api</a>');
    expect(page).to.contain('failed: <code>ERR_GIT_CLONE_FAILED</code>');
    // The refused line is shown as text, escaped.
    expect(page).to.contain('ext::sh -c touch% /tmp/cadence-scan-pwned');
    expect(page).to.match(/<title id="organization-share-title">Assistant share by month, \d{4}-\d{2} to \d{4}-\d{2}/);
    expect(page).to.contain('<table class="sortable">');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!;
    expect(policy).to.match(
      /^default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'$/,
    );
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
    const { createHash } = await import('node:crypto');
    expect(policy).to.contain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(page).to.not.match(/\s(?:src|href)="(?:https?:)?\/\//);
  });

  it('counts the organization over commits, exactly as the repositories\u2019 own analyses do', async () => {
    const run = await scan(['--repos', list, '-o', 'org2.json']);
    expect(run.code, run.stderr).to.equal(0);
    const org = JSON.parse(await readFile(path.join(work.path, 'org2.json'), 'utf8')) as Org;
    const singles: RepositoryJson[] = [];
    for (const name of ['acme/api', 'acme/web', 'acme/tools']) {
      const one = await runCadence(['analyze', daemon.url(`${name}.git`), '--json', '--config', config], {
        cwd: work.path,
      });
      expect(one.code, one.stderr).to.equal(0);
      singles.push(JSON.parse(one.stdout) as RepositoryJson);
    }
    const scored = singles.reduce((s, r) => s + r.scored_commits, 0);
    expect(org.scored_commits).to.equal(scored);
    expect(org.total_commits).to.equal(singles.reduce((s, r) => s + r.total_commits, 0));
    expect(org.ai_share).to.be.closeTo(singles.reduce((s, r) => s + r.ai_share * r.scored_commits, 0) / scored, 0.001);
    const sam = org.authors.find((a) => a.email === 'sam@example.test')!;
    expect(sam.commits).to.equal(10);
    expect(sam.repositories.sort()).to.deep.equal(['acme/api', 'acme/web']);
    expect(org.months.reduce((s, m) => s + m.commits, 0)).to.equal(org.total_commits);
  });

  it('prints the organization verdict first on stdout, and --since judges only later commits', async () => {
    const all = await scan(['--repos', list]);
    expect(all.code, all.stderr).to.equal(0);
    expect(all.stdout.split('\n')[0]).to.match(/^Verdict: (clean|suspicious|likely_ai_generated): 3 repositories: /);
    expect(all.stdout.split('\n')[1]).to.match(
      /^Pooled: assistant share \d+% of \d+ scored commits in 3 of 5 repositories/,
    );
    expect(all.stdout).to.contain('failed: ERR_GIT_CLONE_FAILED');
    const since = await scan(['--repos', list, '--since', '2025-03-01', '-o', 'since.json']);
    expect(since.code, since.stderr).to.equal(0);
    const org = JSON.parse(await readFile(path.join(work.path, 'since.json'), 'utf8')) as Org;
    expect(org.repositories.find((r) => r.repository === 'acme/api')!.total_commits).to.equal(5);
    expect(org.months.every((m) => m.month >= '2025-03')).to.equal(true);
  });

  it('exits 3 when the organization verdict reaches --fail-on, 1 when every repository failed, 2 on bad usage', async () => {
    const onlyWeb = path.join(work.path, 'web.txt');
    await writeFile(onlyWeb, `${daemon.url('acme/web.git')}\n`);
    const gate = await scan(['--repos', onlyWeb, '--fail-on', 'suspicious']);
    expect(gate.code, gate.stderr).to.equal(3);
    expect(gate.stderr).to.contain('reaches --fail-on suspicious');
    const gone = path.join(work.path, 'gone.txt');
    await writeFile(gone, `${daemon.url('acme/gone.git')}\n`);
    const failed = await scan(['--repos', gone]);
    expect(failed.code).to.equal(1);
    expect(failed.stderr).to.contain('every listed repository failed (repositories of gone.txt: 1 of 1)');
    expect((await scan(['--repos', list, '--concurrency', '0'])).code).to.equal(2);
    expect((await scan(['--repos', list, '--since', 'last tuesday'])).code).to.equal(2);
    const pdf = await scan(['--repos', list, '-o', 'org.pdf']);
    expect(pdf.code).to.equal(2);
    expect(pdf.stderr).to.contain('use .json, .html or .txt');
    expect((await scan([])).code).to.equal(2);
    const missing = await scan(['--repos', 'no-such-file.txt']);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.contain('cannot read --repos no-such-file.txt: ENOENT');
  });

  it('scans only the repositories --match selects, and exits 1 when it selects none', async () => {
    const run = await scan(['--repos', list, '--match', 'acme/t*', '-o', 'match.json']);
    expect(run.code, run.stderr).to.equal(0);
    const org = JSON.parse(await readFile(path.join(work.path, 'match.json'), 'utf8')) as Org;
    expect(org.repositories.map((r) => r.repository)).to.deep.equal(['acme/tools']);
    const none = await scan(['--repos', list, '--match', 'nothing/*']);
    expect(none.code).to.equal(1);
    expect(none.stderr).to.contain('no repositories to scan');
  });

  it('keeps each result beside the mirrors and answers an unchanged head from it; a new commit is analysed afresh', async () => {
    const solo = path.join(work.path, 'solo');
    await mkdir(solo);
    const repo = await createRepository(solo, humanHistory(8));
    const soloList = path.join(work.path, 'solo.txt');
    await writeFile(soloList, `${solo}\n`);
    const first = await scan(['--repos', soloList, '-o', 'solo1.json']);
    expect(first.code, first.stderr).to.equal(0);
    const results = path.join(work.path, 'cache', 'results');
    const kept = (await readdir(results)).filter((n) => n.endsWith('.json'));
    const before = JSON.parse(await readFile(path.join(work.path, 'solo1.json'), 'utf8')) as Org;
    // Mark every kept result: a scan that reads them back shows the mark.
    for (const name of kept) {
      const file = path.join(results, name);
      const result = JSON.parse(await readFile(file, 'utf8')) as { ai_share: number };
      await writeFile(file, JSON.stringify({ ...result, ai_share: 0.777 }));
    }
    const second = await scan(['--repos', soloList, '-o', 'solo2.json']);
    expect(second.code, second.stderr).to.equal(0);
    const reused = JSON.parse(await readFile(path.join(work.path, 'solo2.json'), 'utf8')) as Org;
    expect(reused.repositories[0]!.ai_share).to.equal(0.777);
    await repo.commit({ message: 'One more change', date: Date.UTC(2019, 5, 1) / 1000, addLines: 5 });
    const third = await scan(['--repos', soloList, '-o', 'solo3.json']);
    const fresh = JSON.parse(await readFile(path.join(work.path, 'solo3.json'), 'utf8')) as Org;
    expect(third.code, third.stderr).to.equal(0);
    expect(fresh.repositories[0]!.ai_share).to.not.equal(0.777);
    expect(fresh.repositories[0]!.total_commits).to.equal(before.repositories[0]!.total_commits + 1);
  });

  it('scans an unchanged remote again with one ls-remote and no fetch; a remote that moved is fetched and analysed afresh', async () => {
    const served = path.join(work.path, 'served-http');
    const src = path.join(work.path, 'src-http');
    await mkdir(src);
    const repo = await createRepository(src, humanHistory(9));
    await exportRepository(served, 'acme/quiet.git', src);
    const http = await startGitHttpServer(served);
    try {
      const url = http.repoUrl('acme/quiet.git');
      const httpList = path.join(work.path, 'http.txt');
      await writeFile(httpList, `${url}\n`);
      const scanOnce = async (out: string) => {
        const before = http.requests();
        const run = await scan(['--repos', httpList, '-o', out]);
        expect(run.code, run.stderr).to.equal(0);
        return {
          org: JSON.parse(await readFile(path.join(work.path, out), 'utf8')) as Org,
          requests: http.requests() - before,
        };
      };
      const first = await scanOnce('http1.json');
      const before = http.requests();
      await runGit(work.path, ['ls-remote', '--symref', '--', url, 'HEAD']);
      const lsRemote = http.requests() - before;
      const again = await scanOnce('http2.json');
      expect(again.requests, 'nothing new: the ls-remote alone').to.equal(lsRemote);
      expect(again.org.repositories[0]!.total_commits).to.equal(first.org.repositories[0]!.total_commits);

      await repo.commit({ message: 'Moved on', date: Date.UTC(2019, 5, 1) / 1000, addLines: 4 });
      await runGit(src, ['push', '--quiet', path.join(served, 'acme/quiet.git'), 'HEAD:main']);
      const moved = await scanOnce('http3.json');
      expect(moved.requests, 'the new commit is fetched').to.be.greaterThan(lsRemote);
      expect(moved.org.repositories[0]!.total_commits).to.equal(first.org.repositories[0]!.total_commits + 1);
    } finally {
      await http.close();
    }
  });
});
