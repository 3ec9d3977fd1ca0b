import { mkdir, writeFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit } from './run-git.js';

export interface FixtureAuthor {
  name: string;
  email: string;
}

export interface FixtureCommit {
  message: string;
  /** Author date: a Date, or Unix seconds. */
  date: Date | number;
  /** Committer date; the author date when absent. */
  committerDate?: Date | number;
  author?: FixtureAuthor;
  committer?: FixtureAuthor;
  /** Files to write (path → content); a `null` content deletes the file. */
  files?: Record<string, string | null>;
  /** Shorthand: add this many new lines to `file` (default `src/main.txt`). */
  addLines?: number;
  file?: string;
}

export interface FixtureRepository {
  readonly dir: string;
  /** Commit hashes in the order they were made. */
  readonly hashes: string[];
  readonly branch: string;
  commit(commit: FixtureCommit): Promise<string>;
  git(args: readonly string[]): Promise<string>;
}

export const DEFAULT_AUTHOR: FixtureAuthor = { name: 'Ada Example', email: 'ada@example.test' };

function gitDate(value: Date | number): string {
  const seconds = value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
  // `@` makes git take the number as Unix seconds whatever its size: without it, git's date
  // parser refuses a 14-digit value such as the far-future dates the tests need.
  return `@${seconds} +0000`;
}

let lineCounter = 0;

/** Creates a real git repository in `dir` (which must exist and be empty) on branch `branch`. */
export async function createRepository(
  dir: string,
  commits: readonly FixtureCommit[] = [],
  options: { branch?: string } = {},
): Promise<FixtureRepository> {
  const branch = options.branch ?? 'main';
  await runGit(dir, ['init', '--quiet', `--initial-branch=${branch}`]);
  await runGit(dir, ['config', 'user.name', DEFAULT_AUTHOR.name]);
  await runGit(dir, ['config', 'user.email', DEFAULT_AUTHOR.email]);
  await runGit(dir, ['config', 'commit.gpgsign', 'false']);
  const hashes: string[] = [];

  async function commit(spec: FixtureCommit): Promise<string> {
    const files: Record<string, string | null> = { ...(spec.files ?? {}) };
    if (spec.addLines !== undefined) {
      const file = spec.file ?? 'src/main.txt';
      const lines = Array.from(
        { length: spec.addLines },
        () => `line ${++lineCounter} ${Math.random().toString(36).slice(2)}`,
      );
      const { readFile } = await import('node:fs/promises');
      const previous = await readFile(join(dir, file), 'utf8').catch(() => '');
      files[file] = previous + lines.join('\n') + '\n';
    }
    for (const [path, content] of Object.entries(files)) {
      const full = join(dir, path);
      if (content === null) {
        await rm(full, { force: true });
      } else {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    }
    await runGit(dir, ['add', '--all']);
    const author = spec.author ?? DEFAULT_AUTHOR;
    const committer = spec.committer ?? author;
    await runGit(dir, ['commit', '--quiet', '--allow-empty', '--no-verify', '-m', spec.message], {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_AUTHOR_DATE: gitDate(spec.date),
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
      GIT_COMMITTER_DATE: gitDate(spec.committerDate ?? spec.date),
    });
    const hash = (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
    hashes.push(hash);
    return hash;
  }

  for (const spec of commits) await commit(spec);
  return { dir, hashes, branch, commit, git: (args) => runGit(dir, args) };
}

/** A human-looking history: small commits hours apart. */
export function humanHistory(count: number, start = Date.UTC(2019, 0, 7, 9) / 1000): FixtureCommit[] {
  return Array.from({ length: count }, (_, i) => ({
    message: `Fix edge case ${i + 1} in parser`,
    date: start + i * (3 * 3600 + ((i * 977) % 5400)),
    addLines: 3 + ((i * 7) % 25),
  }));
}

/** A burst history: a few huge commits a minute or two apart. */
export function burstHistory(count: number, start = Date.UTC(2025, 5, 2, 14) / 1000): FixtureCommit[] {
  return Array.from({ length: count }, (_, i) => ({
    message: `Implement module ${i + 1}`,
    date: start + i * 70,
    addLines: 1200 + i * 50,
    file: `src/module${i + 1}.ts`,
  }));
}
