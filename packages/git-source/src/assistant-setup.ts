import { CadenceError, itemAt } from '@cadence-detect/errors';
import { runGitCommand } from './git-process.js';

/** A file at the head that sets a project up for a coding assistant, with when it came and who kept it. */
export interface AssistantSetupFile {
  readonly path: string;
  /** The assistant the file is read by (`AGENTS.md`: several agents read it, named "AGENTS.md"). */
  readonly assistant: string;
  /** The commit that added the file at this path (full hash), and its author date; null when the history read does not reach it. */
  readonly firstCommit: string | null;
  readonly firstTime: number | null;
  /** Commits that touched it, and their distinct authors (the first 10 by commits). */
  readonly commits: number;
  readonly authors: readonly string[];
}

/**
 * The files assistants read their project instructions from, as each assistant documents them: a
 * path matches when it is one of these files, or lies in one of these folders. Folders are matched
 * from the top of the tree, instruction files in any folder (assistants read nested ones too).
 */
const SETUP_FILES: readonly { readonly test: (path: string) => boolean; readonly assistant: string }[] = [
  { test: (p) => baseName(p) === 'CLAUDE.md' || p.startsWith('.claude/'), assistant: 'Claude Code' },
  { test: (p) => baseName(p) === 'AGENTS.md', assistant: 'AGENTS.md' },
  { test: (p) => baseName(p) === 'GEMINI.md' || p.startsWith('.gemini/'), assistant: 'Gemini CLI' },
  {
    test: (p) =>
      p === '.github/copilot-instructions.md' ||
      (p.startsWith('.github/instructions/') && p.endsWith('.instructions.md')) ||
      p === '.github/workflows/copilot-setup-steps.yml' ||
      p === '.github/workflows/copilot-setup-steps.yaml',
    assistant: 'GitHub Copilot',
  },
  { test: (p) => baseName(p) === '.cursorrules' || p.startsWith('.cursor/rules/'), assistant: 'Cursor' },
  { test: (p) => baseName(p) === '.windsurfrules' || p.startsWith('.windsurf/rules/'), assistant: 'Windsurf' },
  { test: (p) => p === '.clinerules' || p.startsWith('.clinerules/'), assistant: 'Cline' },
  { test: (p) => p === '.roomodes' || p.startsWith('.roo/'), assistant: 'Roo Code' },
  { test: (p) => p === '.aider.conf.yml' || p === '.aiderignore', assistant: 'aider' },
  { test: (p) => p.startsWith('.continue/'), assistant: 'Continue' },
  { test: (p) => p.startsWith('.junie/'), assistant: 'Junie' },
  { test: (p) => p === '.openhands/microagents/repo.md' || p.startsWith('.openhands/'), assistant: 'OpenHands' },
];

/** At most this many setup files are reported (a tree of hundreds of rules files names the same assistants). */
export const MAX_SETUP_FILES = 50;
const MAX_AUTHORS = 10;

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** The assistant a path at the head sets a project up for, or null. */
export function assistantOfSetupPath(path: string): string | null {
  return SETUP_FILES.find((rule) => rule.test(path))?.assistant ?? null;
}

/**
 * The assistant setup files among `paths` (the tree at `head`), each with the commit that added it,
 * the commits that touched it and their authors: one `git log --name-status` of those paths
 * (literal pathspecs after `--`), walked once for all of them.
 */
export async function readAssistantSetup(
  dir: string,
  head: string,
  paths: Iterable<string>,
  signal?: AbortSignal,
): Promise<AssistantSetupFile[]> {
  const found = [...paths]
    .filter((path) => assistantOfSetupPath(path) !== null)
    .sort()
    .slice(0, MAX_SETUP_FILES);
  if (found.length === 0) return [];
  const log = await runGitCommand(
    dir,
    [
      '-c',
      'core.quotePath=false',
      'log',
      '-z',
      '--no-renames',
      '--name-status',
      '--format=%x01%H %at %aN',
      '--end-of-options',
      head,
      '--',
      ...found.map((path) => `:(literal)${path}`),
    ],
    signal,
  );
  if (log.code !== 0)
    throw new CadenceError('ERR_GIT_READ_FAILED', {
      message: `git log of the assistant setup files failed: ${log.stderr.trim().split('\n')[0] ?? ''}`,
    });
  const seen = tallySetupLog(log.stdout, found);
  return found.flatMap((path) => {
    const entry = seen.get(path);
    const assistant = assistantOfSetupPath(path);
    if (!entry || !assistant) return [];
    return {
      path,
      assistant,
      firstCommit: entry.first,
      firstTime: entry.time,
      commits: entry.commits,
      authors: [...entry.authors]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, MAX_AUTHORS)
        .map(([name]) => name),
    };
  });
}

interface SetupTally {
  first: string | null;
  time: number | null;
  commits: number;
  authors: Map<string, number>;
}

/**
 * Each setup file's commits and authors, and the commit that added it, from the log's
 * `\x01<hash> <time> <author>\0\n<status>\0<path>\0…` records, newest first: the first add met
 * is the one the file's present life began with.
 */
function tallySetupLog(stdout: string, found: readonly string[]): Map<string, SetupTally> {
  const seen = new Map<string, SetupTally>();
  for (const path of found) seen.set(path, { first: null, time: null, commits: 0, authors: new Map() });
  for (const record of stdout.split('\x01')) {
    const [header = '', ...fields] = record.split('\0');
    const match = /^([0-9a-f]{40,64}) (\d+) (.*)$/.exec(header);
    if (!match) continue;
    const [, hash = '', time, author = ''] = match;
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const entry = seen.get(itemAt(fields, i + 1));
      if (!entry) continue;
      entry.commits++;
      entry.authors.set(author, (entry.authors.get(author) ?? 0) + 1);
      if (itemAt(fields, i).trim().startsWith('A') && entry.first === null) {
        entry.first = hash;
        entry.time = Number(time);
      }
    }
  }
  return seen;
}
