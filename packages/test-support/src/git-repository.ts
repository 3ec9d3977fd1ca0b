import { appendFile, mkdir, readFile, writeFile, rm } from 'node:fs/promises';
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

function newLines(count: number): string {
  return (
    Array.from({ length: count }, () => `line ${++lineCounter} ${Math.random().toString(36).slice(2)}`).join('\n') +
    '\n'
  );
}

/** The file `addLines` grows, if the commit asks for new lines. */
function grownFile(spec: FixtureCommit): string | undefined {
  return spec.addLines === undefined ? undefined : (spec.file ?? 'src/main.txt');
}

/** What a commit writes: its files, and its new lines after `previous`, the grown file's content. */
function filesOf(spec: FixtureCommit, previous: string): Record<string, string | null> {
  const grown = grownFile(spec);
  if (grown === undefined || spec.addLines === undefined) return { ...(spec.files ?? {}) };
  return { ...(spec.files ?? {}), [grown]: previous + newLines(spec.addLines) };
}

/**
 * The fixture's identity, and no automatic maintenance after each commit (one process fewer per
 * commit). Written into the repository's own config: `git config` would be three processes.
 */
const FIXTURE_CONFIG = `[user]\n\tname = ${DEFAULT_AUTHOR.name}\n\temail = ${DEFAULT_AUTHOR.email}\n[commit]\n\tgpgsign = false\n[maintenance]\n\tauto = false\n`;

/** Creates a real git repository in `dir` (which must exist and be empty) on branch `branch`. */
export async function createRepository(
  dir: string,
  commits: readonly FixtureCommit[] = [],
  options: { branch?: string } = {},
): Promise<FixtureRepository> {
  const branch = options.branch ?? 'main';
  await runGit(dir, ['init', '--quiet', `--initial-branch=${branch}`]);
  await appendFile(join(dir, '.git', 'config'), FIXTURE_CONFIG);
  const hashes: string[] = [];

  async function commit(spec: FixtureCommit): Promise<string> {
    const grown = grownFile(spec);
    const previous = grown === undefined ? '' : await readFile(join(dir, grown), 'utf8').catch(() => '');
    for (const [path, content] of Object.entries(filesOf(spec, previous))) {
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

  if (commits.length > 0 && commits.every(importable)) {
    hashes.push(...(await importHistory(dir, branch, commits)));
  } else {
    for (const spec of commits) await commit(spec);
  }
  return { dir, hashes, branch, commit, git: (args) => runGit(dir, args) };
}

const PLAIN_IDENTITY = /^[^<>\n]+$/;

/**
 * Whether `git fast-import` makes the same commit as `add --all` and `commit -m` would: a plain
 * identity, a message left non-empty by commit's whitespace clean-up, whole-second dates, and paths
 * that neither git's ignore and attribute files nor path quoting could treat differently.
 */
function importable(spec: FixtureCommit): boolean {
  const identities = [spec.author ?? DEFAULT_AUTHOR, spec.committer ?? spec.author ?? DEFAULT_AUTHOR];
  const dates = [spec.date, spec.committerDate ?? spec.date].map(unixSeconds);
  const grown = grownFile(spec);
  const paths = [...Object.keys(spec.files ?? {}), ...(grown === undefined ? [] : [grown])];
  return (
    identities.every((who) => PLAIN_IDENTITY.test(who.name) && PLAIN_IDENTITY.test(who.email)) &&
    cleanedMessage(spec.message) !== '' &&
    dates.every((seconds) => Number.isSafeInteger(seconds) && seconds >= 0) &&
    paths.every(
      (path) =>
        !/^["/]|\n|\\/.test(path) &&
        path
          .split('/')
          .every(
            (part) => part !== '' && part !== '.' && part !== '..' && !/^\.git(ignore|attributes|modules)?$/.test(part),
          ),
    )
  );
}

function unixSeconds(value: Date | number): number {
  return value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
}

/** `git commit -m`'s clean-up (`whitespace`): trailing blanks, and blank lines at the ends and in runs. */
function cleanedMessage(message: string): string {
  const kept: string[] = [];
  let blankBefore = false;
  for (const line of message.split('\n').map((text) => text.replace(/[ \t\r\v\f]+$/, ''))) {
    if (line === '') {
      blankBefore = kept.length > 0;
      continue;
    }
    if (blankBefore) kept.push('');
    blankBefore = false;
    kept.push(line);
  }
  return kept.length > 0 ? `${kept.join('\n')}\n` : '';
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/**
 * The whole history in one `git fast-import` and one checkout, instead of three processes per
 * commit: the commits, trees and blobs are the ones `commit()` makes. Returns the hashes in order.
 */
async function importHistory(dir: string, branch: string, commits: readonly FixtureCommit[]): Promise<string[]> {
  const tree = new Map<string, string>();
  const stream: string[] = [];
  commits.forEach((spec, index) => {
    const grown = grownFile(spec);
    const files = filesOf(spec, grown === undefined ? '' : (tree.get(grown) ?? ''));
    const author = spec.author ?? DEFAULT_AUTHOR;
    const committer = spec.committer ?? author;
    stream.push(
      `commit refs/heads/${branch}\nmark :${index + 1}\n`,
      `author ${author.name} <${author.email}> ${unixSeconds(spec.date)} +0000\n`,
      `committer ${committer.name} <${committer.email}> ${unixSeconds(spec.committerDate ?? spec.date)} +0000\n`,
      data(cleanedMessage(spec.message)),
    );
    for (const [path, content] of Object.entries(files)) {
      if (content === null) {
        tree.delete(path);
        stream.push(`D ${path}\n`);
      } else {
        tree.set(path, content);
        stream.push(`M 100644 inline ${path}\n`, data(content));
      }
    }
  });
  const marks = join(dir, '.git', 'fixture-marks');
  await runGit(dir, ['fast-import', '--quiet', '--date-format=raw', `--export-marks=${marks}`], {}, stream.join(''));
  await runGit(dir, ['reset', '--hard', '--quiet']);
  const byMark = new Map(
    (await readFile(marks, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => [line.slice(1, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const),
  );
  await rm(marks);
  return commits.map((_, index) => {
    const hash = byMark.get(String(index + 1));
    if (!hash) throw new Error(`git fast-import made no commit for mark ${index + 1}`);
    return hash;
  });
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
