import * as semver from './vendor/semver.js';
import { tmpdir } from 'node:os';
import { runGitCommand } from './git-process.js';

export type GitVersion = readonly [major: number, minor: number, patch: number];

/** `http.curloptResolve`, which pins an http(s) clone to the address the guard checked, came in git 2.37. */
export const HTTP_PINNING_SINCE: GitVersion = [2, 37, 0];

/** `git version 2.39.5`, `git version 2.37.0.windows.1`, `git version 2.39.3 (Apple Git-146)` → numbers; null otherwise. */
// git's version line is not semver (`2.37.0.windows.1`): the numbers are read here, compared by semver.
export function parseGitVersion(output: string): GitVersion | null {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output);
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

export function atLeast(version: GitVersion, wanted: GitVersion): boolean {
  return semver.gte(version.join('.'), wanted.join('.'));
}

let installed: Promise<GitVersion | null> | null = null;

/** The version of the git on PATH, asked once per process. */
export function installedGitVersion(): Promise<GitVersion | null> {
  installed ??= runGitCommand(tmpdir(), ['--version']).then(
    (result) => (result.code === 0 ? parseGitVersion(result.stdout) : null),
    () => null,
  );
  return installed;
}
