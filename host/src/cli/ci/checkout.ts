import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfigText, type ConfigFile } from '@cadence-detect/config';
import { locateRepository, runGitCommand } from '@cadence-detect/git-source';
import { CliError } from '../exit-codes.js';

/** Where a CI job's checkout is and what it may trust. */
export interface CiCheckout {
  /** The working tree's top level (links resolved): git runs on its git directory, named explicitly. */
  readonly dir: string;
  /** The commit the change starts from (its commits are those after it), or null: the whole history. */
  readonly base: string | null;
  readonly head: string;
}

/** A commit id a revision names in `dir`, or null (never an option: `--end-of-options` comes first). */
export async function resolveCommit(dir: string, revision: string): Promise<string | null> {
  if (!revision || revision.startsWith('-') || /^0+$/.test(revision)) return null;
  const result = await runGitCommand(dir, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `${revision}^{commit}`,
  ]);
  return result.code === 0 ? result.stdout.trim() : null;
}

/**
 * The checkout a CI job analyses: a git repository with its whole history (a shallow one would make
 * every commit before the cut look like the start of the project), the base and head commits in it.
 * `deepen` says, in the forge's own words, how to fetch the whole history.
 */
export async function openCheckout(
  dir: string,
  base: string | null,
  head: string | null,
  deepen: string,
): Promise<CiCheckout> {
  // The one time git looks for the repository: a bare one (ordinary files the change committed in
  // `path`, whose `config` could name commands) is refused, and every later git process is told it.
  const located = await locateRepository(dir, { allowBare: false }).catch(() => null);
  if (!located?.top)
    throw new CliError(
      'failed',
      `${dir} is not in a git repository's working tree (check out the repository before this step; a bare repository is refused)`,
    );
  const input = dir;
  dir = located.top;
  const shallow = await runGitCommand(dir, ['rev-parse', '--is-shallow-repository']).catch(() => null);
  if (!shallow || shallow.code !== 0)
    throw new CliError('failed', `${input} is not a git repository (check out the repository before this step)`);
  if (shallow.stdout.trim() === 'true') {
    throw new CliError(
      'usage',
      `the checkout at ${dir} is shallow: Cadence needs the whole history to judge the new commits against it. ${deepen}`,
    );
  }
  const headCommit = (head ? await resolveCommit(dir, head) : null) ?? (await resolveCommit(dir, 'HEAD'));
  if (!headCommit) throw new CliError('failed', `the repository at ${dir} has no commits`);
  if (!base) return { dir, base: null, head: headCommit };
  const baseCommit = await resolveCommit(dir, base);
  if (!baseCommit)
    throw new CliError(
      'usage',
      `the base ${JSON.stringify(base.slice(0, 80))} is not a commit of the checkout at ${dir}. ${deepen}`,
    );
  return { dir, base: baseCommit, head: headCommit };
}

/**
 * A file's text at a commit, or null when the commit has no such file (or has a link there: its
 * text would be the link's target, not a configuration). `file` is relative to the top level.
 */
async function fileAt(dir: string, commit: string, file: string): Promise<string | null> {
  const listed = await runGitCommand(dir, ['--literal-pathspecs', 'ls-tree', '--full-tree', commit, '--', file]);
  if (listed.code !== 0 || !/^100(644|755) blob /.test(listed.stdout)) return null;
  const result = await runGitCommand(dir, ['cat-file', 'blob', `${commit}:${file}`]);
  return result.code === 0 ? result.stdout : null;
}

const isWithin = (top: string, candidate: string): boolean => {
  const relative = path.relative(top, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
};

/**
 * Where a configuration path lies: inside the repository (its path from the top level, to be read
 * from git) or outside it (a file on disk). The path's text is resolved first (`..` included); then
 * each leading folder is resolved with its links until one lands at or under the top level. Links
 * before that point belong to the machine, not to the change; from that point on the rest of the
 * path is taken as text, so a link the change committed is never followed (read from git, it names
 * no file).
 */
export async function placeConfigPath(
  absolute: string,
  top: string,
): Promise<{ inside: true; gitPath: string } | { inside: false; file: string }> {
  const segments = path.resolve(absolute).split(path.sep);
  for (let count = 1; count <= segments.length; count++) {
    const prefix = segments.slice(0, count).join(path.sep) || path.sep;
    let real: string;
    try {
      real = await realpath(prefix);
    } catch {
      break;
    }
    if (isWithin(top, real)) {
      const rest = [...path.relative(top, real).split(path.sep), ...segments.slice(count)].filter(Boolean);
      return { inside: true, gitPath: rest.join('/') };
    }
  }
  return { inside: false, file: path.resolve(absolute) };
}

const PROJECT_FILES = ['.cadence.yaml', '.cadence.yml', '.cadence.json'];

/**
 * The configuration of a CI run, never from the change's own files (which could disable strategies,
 * move the bands or load code to defeat the gate):
 * - `--config` outside the repository: that file, the user's choice;
 * - `--config` inside the repository (wherever `path` points within it): the same file as it is at
 *   the base commit, as the user's choice;
 * - otherwise the base commit's `.cadence.yaml` at the repository's top level, as a project file
 *   (analysis data only);
 * - no base (a push with no earlier commit): the head's, as a project file.
 * `--config` is relative to the workspace. `cleanup` removes the copy a base file was written to.
 */
export async function ciConfiguration(
  checkout: CiCheckout,
  workspace: string,
  configInput: string | undefined,
): Promise<{ configPath?: string; projectFile: ConfigFile | null; cleanup(): Promise<void> }> {
  const none = async (): Promise<void> => undefined;
  const source = checkout.base ?? checkout.head;
  if (configInput) {
    const top = checkout.dir;
    const placed = await placeConfigPath(
      path.resolve(await realpath(workspace).catch(() => workspace), configInput),
      top,
    );
    if (!placed.inside) return { configPath: placed.file, projectFile: null, cleanup: none };
    const text = placed.gitPath ? await fileAt(checkout.dir, source, placed.gitPath) : null;
    if (text === null)
      throw new CliError(
        'usage',
        `--config ${configInput}: no such file at the base commit ${source.slice(0, 12)} (a change's own configuration is never used; name a file outside the repository or commit it to the base branch first)`,
      );
    const folder = await mkdtemp(path.join(tmpdir(), 'cadence-ci-config-'));
    const copy = path.join(folder, path.posix.basename(placed.gitPath));
    await writeFile(copy, text);
    return { configPath: copy, projectFile: null, cleanup: () => rm(folder, { recursive: true, force: true }) };
  }
  for (const name of PROJECT_FILES) {
    const text = await fileAt(checkout.dir, source, name);
    if (text !== null)
      return { projectFile: parseConfigText(`${name} at ${source.slice(0, 12)}`, text, name), cleanup: none };
  }
  return { projectFile: null, cleanup: none };
}
