import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTempDir, runCadence, runGit } from '@cadence-detect/test-support';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const { releaseTags, tagRelease } = (await import(
  pathToFileURL(path.join(root, 'scripts', 'release-tags.mjs')).href
)) as {
  releaseTags(version: string): string[];
  tagRelease(version: string, cwd: string, env?: NodeJS.ProcessEnv): string[];
};

/** git's environment with no configuration but the repository's own (a fresh machine: no identity), plus `extra`. */
function freshMachineEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', EMAIL: '', ...extra };
}

/** Every ref of this project's action or template a text names: `cadence-detect/cadence@<ref>` and `…/cadence-detect/cadence/<ref>/templates/`. */
function namedRefs(text: string): string[] {
  return [
    ...text.matchAll(/cadence-detect\/cadence@([\w.-]+)/g),
    ...text.matchAll(/cadence-detect\/cadence\/([\w.-]+)\/templates\//g),
  ].map((m) => m[1]!);
}

/** A repository in `dir` with one empty commit (its author given on the command line), and git there. */
function repositoryWithACommit(dir: string): (...args: string[]) => string {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=R', '-c', 'user.email=r@example.test', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'one');
  return git;
}

describe('the refs the docs and templates print are tags a release makes', function () {
  this.timeout(60_000);

  it('names only v<CLI version> or v<major> in docs/, the README, the templates and config init --ci', async () => {
    const { version } = JSON.parse(await readFile(path.join(root, 'host', 'package.json'), 'utf8')) as {
      version: string;
    };
    const made = releaseTags(version);
    const texts: [string, string][] = [];
    for (const name of await readdir(path.join(root, 'docs')))
      if (name.endsWith('.md')) texts.push([`docs/${name}`, await readFile(path.join(root, 'docs', name), 'utf8')]);
    for (const file of ['README.md', 'action.yml', 'templates/cadence.gitlab-ci.yml'])
      texts.push([file, await readFile(path.join(root, file), 'utf8')]);
    const work = await makeTempDir('cadence-release-refs-');
    try {
      for (const forge of ['github', 'gitlab']) {
        const dir = path.join(work.path, forge);
        await runGit(work.path, ['init', '-q', dir]);
        const run = await runCadence(['config', 'init', '--ci', forge], { cwd: dir });
        expect(run.code, run.stderr).to.equal(0);
        const written = forge === 'github' ? '.github/workflows/cadence.yml' : '.gitlab-ci.yml';
        texts.push([`config init --ci ${forge}`, await readFile(path.join(dir, written), 'utf8')]);
      }
    } finally {
      await work.remove();
    }
    const named = texts.flatMap(([where, text]) => namedRefs(text).map((ref) => ({ where, ref })));
    expect(named.length).to.be.greaterThan(3);
    for (const { where, ref } of named) expect(made, `${where} names ${ref}`).to.include(ref);
  });

  it('tags a release v<version> and moves v<major> (pnpm release runs it after changeset tag)', async () => {
    const work = await makeTempDir('cadence-release-tags-');
    try {
      const git = repositoryWithACommit(work.path);
      // The releaser's identity, given to git by the environment (never the machine's configuration).
      const releaser = freshMachineEnv({
        GIT_COMMITTER_NAME: 'Releaser',
        GIT_COMMITTER_EMAIL: 'releaser@example.test',
      });
      expect(tagRelease('0.1.0', work.path, releaser)).to.deep.equal(['v0.1.0', 'v0']);
      const first = git('rev-parse', 'HEAD');
      git('commit', '-q', '--allow-empty', '-m', 'two');
      tagRelease('0.2.0', work.path, releaser);
      expect(git('rev-parse', 'v0.1.0^{commit}')).to.equal(first);
      expect(git('rev-parse', 'v0^{commit}')).to.equal(git('rev-parse', 'HEAD'));
      expect(git('tag', '-l').split('\n').sort()).to.deep.equal(['v0', 'v0.1.0', 'v0.2.0']);
      // A version already tagged is never moved.
      expect(() => tagRelease('0.1.0', work.path, releaser)).to.throw(/v0\.1\.0/);
      expect(git('for-each-ref', '--format=%(taggername)', 'refs/tags/v0.2.0')).to.equal('Releaser');
    } finally {
      await work.remove();
    }
  });

  it('says in one line how to set an identity when git has none, and tags nothing', async () => {
    const work = await makeTempDir('cadence-release-identity-');
    try {
      const git = repositoryWithACommit(work.path);
      expect(() => tagRelease('0.1.0', work.path, freshMachineEnv())).to.throw(
        /no identity.*git config --global user\.name/,
      );
      expect(git('tag', '-l')).to.equal('');
    } finally {
      await work.remove();
    }
  });
});
