/**
 * The git tags a release makes for the GitHub Action and the GitLab template, which users pin:
 * `v<version>` (the CLI's version, never moved) and `v<major>` (moved to each release of that
 * major, as actions do). docs/ci.md, `cadence config init --ci` and the templates name only these;
 * tests/architecture/release-refs.test.ts checks every ref they print against `releaseTags`.
 */
import { spawnSync } from 'node:child_process';

/** The tags a release of `version` makes: the exact one, then the moving major one. */
export function releaseTags(version) {
  const major = /^(\d+)\./.exec(version)?.[1];
  if (!major) throw new Error(`not a version: ${version}`);
  return [`v${version}`, `v${major}`];
}

/**
 * Refuses, in one line, to go on when git has no identity to sign the annotated tags with
 * (`user.name` and `user.email`, or the GIT_COMMITTER_* variables): `pnpm release` checks this before
 * it publishes anything, so a fresh machine never publishes and then fails at the tags.
 */
export function requireTaggerIdentity(cwd = process.cwd(), env = process.env) {
  const run = spawnSync('git', ['var', 'GIT_COMMITTER_IDENT'], { cwd, env, encoding: 'utf8' });
  if (run.status !== 0)
    throw new Error(
      'git has no identity to tag the release with: set one with `git config --global user.name "Your Name"` and `git config --global user.email you@example.com` (or GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL)',
    );
}

/**
 * Makes the release's tags at HEAD of the repository in `cwd` (the moving one forced); pushing them
 * is the releaser's. `env` is git's environment (the releaser's identity comes from it or git's config).
 */
export function tagRelease(version, cwd = process.cwd(), env = process.env) {
  const [exact, moving] = releaseTags(version);
  requireTaggerIdentity(cwd, env);
  const git = (args) => {
    const run = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  };
  git(['tag', '-a', exact, '-m', `Cadence ${version}`]);
  git(['tag', '-f', '-a', moving, '-m', `Cadence ${version} (moves with each ${moving}.x release)`]);
  return [exact, moving];
}
