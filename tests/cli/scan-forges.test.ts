import { expect } from 'chai';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  startFakeBitbucket,
  startFakeGitea,
  startFakeGithub,
  startFakeGitlab,
  startGitHttpServer,
  type FakeForge,
  type GitHttpServer,
  type TempDir,
} from '@cadence-detect/test-support';

const GITHUB_TOKEN = 'ghp_scanTokenThatMustNotLeak0123456789';
const GITLAB_TOKEN = 'glpat-scanTokenThatMustNotLeak98765';
const GITEA_TOKEN = 'gitea0scan0token0that0must0not0leak';
const BITBUCKET_TOKEN = 'ATCTT3xFfGN0bitbucketScanTokenNoLeak42';

interface Org {
  organization: string;
  counts: { listed: number; analyzed: number; failed: number };
  repositories: { repository: string; url: string; error: { code: string } | null }[];
}

/** Every file under `dir` (mirrors, kept results), for a search of the token. */
async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(full)));
    else if ((await stat(full)).size < 2 * 1024 * 1024) out.push(full);
  }
  return out;
}

describe('cadence scan github:<org> and gitlab:<group> (fake forge APIs, real git over http)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let git: GitHttpServer;
  let github: FakeForge;
  let gitlab: FakeForge;

  before(async () => {
    work = await makeTempDir('cadence-scan-forges-');
    const served = path.join(work.path, 'served');
    await mkdir(served);
    for (const name of ['acme/api', 'acme/web', 'acme/old', 'acme/forked', 'acme/sub/lib']) {
      const dir = path.join(work.path, 'src', name);
      await mkdir(dir, { recursive: true });
      await createRepository(dir, humanHistory(6));
      await exportRepository(served, `${name}.git`, dir);
    }
    git = await startGitHttpServer(served);
    github = await startFakeGithub();
    gitlab = await startFakeGitlab();
  });
  after(async () => {
    await Promise.all([git?.close(), github?.close(), gitlab?.close()]);
    await work?.remove();
  });

  const githubRepo = (name: string, extra: Record<string, unknown> = {}) => ({
    full_name: name,
    clone_url: git.repoUrl(`${name}.git`),
    html_url: `https://github.example/${name}`,
    archived: false,
    fork: false,
    private: true,
    ...extra,
  });

  /** The git server's `host:port`: the forge's git host, named in git_hosts (its API is on another port). */
  const gitHost = (): string => new URL(git.repoUrl('x')).host;

  async function scan(target: string, args: string[], forge: 'github' | 'gitlab') {
    const config = path.join(work.path, `${forge}.yaml`);
    const forges =
      forge === 'github'
        ? `forges:\n  github:\n    token: ${GITHUB_TOKEN}\n    api_url: ${github.apiUrl}\n    git_hosts: [${JSON.stringify(gitHost())}]\n`
        : `forges:\n  gitlab:\n    token: ${GITLAB_TOKEN}\n    api_url: ${gitlab.apiUrl}\n    git_hosts: [${JSON.stringify(gitHost())}]\n`;
    await writeFile(config, `${forges}cache:\n  repositories_dir: ${JSON.stringify(path.join(work.path, 'cache'))}\n`);
    return runCadence(['scan', target, '--config', config, ...args], { cwd: work.path });
  }

  it('lists an organization across pages, leaves out forks and archived ones, and clones with the token outside the URL', async () => {
    github.script('GET', /^\/orgs\/acme\/repos/, [
      {
        status: 200,
        headers: {
          link: `<${github.apiUrl}/orgs/acme/repos?type=all&per_page=100&page=2>; rel="next", <${github.apiUrl}/orgs/acme/repos?type=all&per_page=100&page=2>; rel="last"`,
        },
        body: [githubRepo('acme/api'), githubRepo('acme/old', { archived: true })],
      },
      { status: 200, body: [githubRepo('acme/forked', { fork: true }), githubRepo('acme/web')] },
    ]);
    const run = await scan('github:acme', ['-o', 'github.json'], 'github');
    expect(run.code, run.stderr).to.equal(0);
    const org = JSON.parse(await readFile(path.join(work.path, 'github.json'), 'utf8')) as Org;
    expect(org.organization).to.equal('github:acme');
    expect(org.repositories.map((r) => r.repository).sort()).to.deep.equal(['acme/api', 'acme/web']);
    expect(org.counts).to.deep.equal({ listed: 2, analyzed: 2, failed: 0 });
    const listings = github.requests.filter((r) => r.path.startsWith('/orgs/acme/repos'));
    expect(listings).to.have.length(2);
    expect(listings[0]!.headers.authorization).to.equal(`token ${GITHUB_TOKEN}`);
    // git sent the token as a header, never in a URL: nothing the scan wrote or printed holds it.
    expect(git.authorizations()).to.include(
      `Basic ${Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64')}`,
    );
    const written = [run.stdout, run.stderr, await readFile(path.join(work.path, 'github.json'), 'utf8')];
    for (const file of await allFiles(path.join(work.path, 'cache'))) written.push(await readFile(file, 'latin1'));
    for (const text of written) {
      expect(text).to.not.contain(GITHUB_TOKEN);
      expect(text).to.not.contain(Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64'));
    }
  });

  it('takes forks and archived repositories when asked, and --match selects by name', async () => {
    const page = [
      githubRepo('acme/api'),
      githubRepo('acme/old', { archived: true }),
      githubRepo('acme/forked', { fork: true }),
      githubRepo('acme/web'),
    ];
    github.script('GET', /^\/orgs\/acme\/repos/, [{ status: 200, body: page }]);
    const all = await scan('github:acme', ['--include-forks', '--include-archived', '-o', 'all.json'], 'github');
    expect(all.code, all.stderr).to.equal(0);
    expect((JSON.parse(await readFile(path.join(work.path, 'all.json'), 'utf8')) as Org).repositories).to.have.length(
      4,
    );
    github.script('GET', /^\/orgs\/acme\/repos/, [{ status: 200, body: page }]);
    const matched = await scan('github:acme', ['--match', 'acme/w*', '-o', 'match.json'], 'github');
    expect(matched.code, matched.stderr).to.equal(0);
    expect(
      (JSON.parse(await readFile(path.join(work.path, 'match.json'), 'utf8')) as Org).repositories.map(
        (r) => r.repository,
      ),
    ).to.deep.equal(['acme/web']);
  });

  it('says why when the forge refuses the listing (exit 1) or the owner is no name (exit 2)', async () => {
    github.script('GET', /^\/orgs\/acme\/repos/, [{ status: 401, body: { message: 'Bad credentials' } }]);
    const refused = await scan('github:acme', [], 'github');
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain('ERR_FORGE_AUTH');
    expect(refused.stderr).to.not.contain(GITHUB_TOKEN);
    const hostile = await scan('github:../../etc', [], 'github');
    expect(hostile.code).to.equal(2);
    expect(hostile.stderr).to.contain('ERR_INVALID_SOURCE');
    const unknown = await scan('nosuchforge:acme', [], 'github');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('no loaded plugin brings the forge "nosuchforge"');
  });

  it('lists a GitLab group with its subgroups across pages (X-Next-Page), and clones with the token as a header', async () => {
    const project = (name: string, extra: Record<string, unknown> = {}) => ({
      id: name.length,
      path_with_namespace: name,
      http_url_to_repo: git.repoUrl(`${name}.git`),
      archived: false,
      visibility: 'private',
      ...extra,
    });
    const next = `${gitlab.apiUrl}/groups/acme/projects?include_subgroups=true&per_page=100&page=2`;
    gitlab.script('GET', /^\/groups\/acme\/projects/, [
      {
        status: 200,
        headers: {
          'x-next-page': '2',
          'x-page': '1',
          'x-total-pages': '2',
          'x-per-page': '100',
          link: `<${next}>; rel="next"`,
        },
        body: [project('acme/api'), project('acme/forked', { forked_from_project: { id: 1 } })],
      },
      {
        status: 200,
        headers: { 'x-next-page': '', 'x-page': '2', 'x-total-pages': '2', 'x-per-page': '100' },
        body: [project('acme/sub/lib')],
      },
    ]);
    const run = await scan('gitlab:acme', ['-o', 'gitlab.json'], 'gitlab');
    expect(run.code, run.stderr).to.equal(0);
    const org = JSON.parse(await readFile(path.join(work.path, 'gitlab.json'), 'utf8')) as Org;
    expect(org.repositories.map((r) => r.repository).sort()).to.deep.equal(['acme/api', 'acme/sub/lib']);
    const listings = gitlab.requests.filter((r) => r.path.startsWith('/groups/acme/projects'));
    expect(listings).to.have.length(2);
    expect(listings[0]!.path).to.contain('include_subgroups=true');
    expect(git.authorizations()).to.include(`Basic ${Buffer.from(`oauth2:${GITLAB_TOKEN}`).toString('base64')}`);
    expect(run.stdout + run.stderr).to.not.contain(GITLAB_TOKEN);
  });

  it('never sends the token to a clone URL the listing names on another host (127.0.0.2): those clones go without credentials', async () => {
    const elsewhere = await startGitHttpServer(path.join(work.path, 'served'), '127.0.0.2');
    try {
      github.script('GET', /^\/orgs\/acme\/repos/, [
        {
          status: 200,
          body: [githubRepo('acme/api', { clone_url: elsewhere.repoUrl('acme/api.git') }), githubRepo('acme/web')],
        },
      ]);
      const run = await scan('github:acme', ['-o', 'elsewhere.json'], 'github');
      expect(run.code, run.stderr).to.equal(0);
      const org = JSON.parse(await readFile(path.join(work.path, 'elsewhere.json'), 'utf8')) as Org;
      expect(org.counts).to.deep.equal({ listed: 2, analyzed: 2, failed: 0 });
      expect(elsewhere.authorizations().filter(Boolean), 'credentials sent to 127.0.0.2').to.deep.equal([]);
      expect(git.authorizations()).to.include(
        `Basic ${Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64')}`,
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('lists a Bitbucket workspace across pages (next) and clones its private repositories with the token as a header only', async () => {
    const bitbucket = await startFakeBitbucket();
    try {
      const repo = (name: string, extra: Record<string, unknown> = {}) => ({
        full_name: name,
        is_private: true,
        // The web link, as Bitbucket gives it, with the viewer's name in it: the clone URL drops it.
        links: { html: { href: git.repoUrl(name).replace('http://', 'http://viewer@') } },
        ...extra,
      });
      bitbucket.script('GET', /^\/repositories\/acme\?/, [
        {
          status: 200,
          body: {
            values: [repo('acme/api'), repo('acme/forked', { parent: { full_name: 'upstream/forked' } })],
            next: `${bitbucket.apiUrl}/repositories/acme?pagelen=100&page=2`,
          },
        },
        { status: 200, body: { values: [repo('acme/web')] } },
      ]);
      const config = path.join(work.path, 'bitbucket.yaml');
      await writeFile(
        config,
        `forges:\n  bitbucket:\n    api_url: ${bitbucket.apiUrl}\n    git_hosts: [${JSON.stringify(gitHost())}]\n` +
          `cache:\n  repositories_dir: ${JSON.stringify(path.join(work.path, 'cache-bitbucket'))}\n`,
      );
      const before = git.authorizations().length;
      const run = await runCadence(['scan', 'bitbucket:acme', '--config', config, '-o', 'bitbucket.json'], {
        cwd: work.path,
        env: { CADENCE_BITBUCKET_TOKEN: BITBUCKET_TOKEN },
      });
      expect(run.code, run.stderr).to.equal(0);
      const written = await readFile(path.join(work.path, 'bitbucket.json'), 'utf8');
      const org = JSON.parse(written) as Org;
      expect(org.repositories.map((r) => r.repository).sort()).to.deep.equal(['acme/api', 'acme/web']);
      expect(org.counts).to.deep.equal({ listed: 2, analyzed: 2, failed: 0 });
      expect(bitbucket.requests.filter((r) => r.path.startsWith('/repositories/acme'))).to.have.length(2);
      expect(bitbucket.requests[0]!.headers.authorization).to.equal(`Bearer ${BITBUCKET_TOKEN}`);
      const header = `Basic ${Buffer.from(`x-token-auth:${BITBUCKET_TOKEN}`).toString('base64')}`;
      expect(git.authorizations().slice(before)).to.include(header);
      const texts = [run.stdout, run.stderr, written];
      for (const file of await allFiles(path.join(work.path, 'cache-bitbucket')))
        texts.push(await readFile(file, 'latin1'));
      for (const text of texts) {
        expect(text).to.not.contain(BITBUCKET_TOKEN);
        expect(text).to.not.contain(header.slice('Basic '.length));
        expect(text).to.not.contain('viewer@');
      }
    } finally {
      await bitbucket.close();
    }
  });

  it('lists a Gitea organization and clones its private repositories with the token as a header only', async () => {
    const gitea = await startFakeGitea();
    try {
      const repo = (name: string, extra: Record<string, unknown> = {}) => ({
        full_name: name,
        clone_url: git.repoUrl(`${name}.git`),
        archived: false,
        fork: false,
        private: true,
        ...extra,
      });
      gitea.script('GET', /^\/orgs\/acme\/repos/, [
        { status: 200, body: [repo('acme/api'), repo('acme/old', { archived: true })] },
      ]);
      const config = path.join(work.path, 'gitea.yaml');
      await writeFile(
        config,
        `forges:\n  gitea:\n    api_url: ${gitea.apiUrl}\n    git_hosts: [${JSON.stringify(gitHost())}]\n` +
          `cache:\n  repositories_dir: ${JSON.stringify(path.join(work.path, 'cache-gitea'))}\n`,
      );
      const before = git.authorizations().length;
      const run = await runCadence(['scan', 'gitea:acme', '--config', config, '-o', 'gitea.json'], {
        cwd: work.path,
        env: { CADENCE_GITEA_TOKEN: GITEA_TOKEN },
      });
      expect(run.code, run.stderr).to.equal(0);
      const written = await readFile(path.join(work.path, 'gitea.json'), 'utf8');
      const org = JSON.parse(written) as Org;
      expect(org.repositories.map((r) => r.repository)).to.deep.equal(['acme/api']);
      expect(gitea.requests[0]!.headers.authorization).to.equal(`token ${GITEA_TOKEN}`);
      expect(git.authorizations().slice(before)).to.include(`token ${GITEA_TOKEN}`);
      const texts = [run.stdout, run.stderr, written];
      for (const file of await allFiles(path.join(work.path, 'cache-gitea')))
        texts.push(await readFile(file, 'latin1'));
      for (const text of texts) expect(text).to.not.contain(GITEA_TOKEN);
    } finally {
      await gitea.close();
    }
  });
});
