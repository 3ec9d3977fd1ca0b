/**
 * The Git AI Standard v3 authorship log (a git note under `refs/notes/ai`), parsed one way for every
 * reader: the commit-level attribution and the line counts read the same log, so they agree on
 * which lines an assistant wrote and on its name.
 *
 * The log is an attestation section (a file path at column 0, quoted when it holds blanks; then
 * `  <key> <ranges>` lines), a line `---`, and JSON metadata whose `sessions` (keys `s_…::t_…`) and
 * legacy `prompts` name each AI agent (`agent_id.tool`, `agent_id.model`). Keys `h_…` (and the
 * early `human`) are people; any other key (a session, a prompt hash, an early UUID) is an AI's.
 * @since 1.16
 */

/** Lines of one file, as of the noted commit, that an assistant wrote (1-based, inclusive). */
export interface AttestedRange {
  readonly start: number;
  readonly end: number;
  /** The `agent_id.tool` of the session (for example `claude`, `cursor`); null when the metadata names none. */
  readonly assistant: string | null;
}

export interface AuthorshipLog {
  /** The AI ranges by path (only files with an AI line). */
  readonly byPath: ReadonlyMap<string, readonly AttestedRange[]>;
  /** Each AI session's `agent_id.tool` with attested lines, in order of first appearance. */
  readonly tools: readonly string[];
  readonly models: readonly string[];
  /** Lines attested to AI sessions, and to known humans. */
  readonly aiLines: number;
  readonly humanLines: number;
  /** Files with at least one AI line. */
  readonly files: number;
}

/** The largest line number a range may name: a hostile note cannot make a count enormous. */
export const AUTHORSHIP_MAX_LINE = 10_000_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const named = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim().slice(0, max) : null;

/** `1-10,15` as ranges; null when any part is malformed. */
function parseRanges(text: string, assistant: string | null): AttestedRange[] | null {
  const ranges: AttestedRange[] = [];
  for (const part of text.split(',')) {
    const match = /^(\d{1,8})(?:-(\d{1,8}))?$/.exec(part);
    if (!match) return null;
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (start < 1 || end < start || end > AUTHORSHIP_MAX_LINE) return null;
    ranges.push({ start, end, assistant });
  }
  return ranges;
}

/**
 * Parses a whole authorship log. Returns why it is not one when it is not (no `---`, metadata that
 * is not a JSON object of `schema_version` `authorship/3.x`, a malformed attestation line): a log
 * cut short loses its metadata, so a reader must hand it the whole note.
 */
export function parseAuthorshipLog(text: string): AuthorshipLog | string {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const divider = lines.indexOf('---');
  if (divider < 0) return 'no "---" line before the metadata';
  let metadata: unknown;
  try {
    metadata = JSON.parse(lines.slice(divider + 1).join('\n'));
  } catch {
    return 'its metadata is not JSON';
  }
  if (!isObject(metadata)) return 'its metadata is not a JSON object';
  const version = metadata.schema_version;
  if (typeof version !== 'string' || !version.startsWith('authorship/3.'))
    return `schema_version ${JSON.stringify(version ?? null)} is not authorship/3.x`;
  const sessions = isObject(metadata.sessions) ? metadata.sessions : {};
  const prompts = isObject(metadata.prompts) ? metadata.prompts : {};
  const byPath = new Map<string, AttestedRange[]>();
  const tools = new Set<string>();
  const models = new Set<string>();
  let aiLines = 0;
  let humanLines = 0;
  let path: string | null = null;
  for (const line of lines.slice(0, divider)) {
    if (line.length === 0) continue;
    if (!line.startsWith(' ')) {
      path = line.length >= 2 && line.startsWith('"') && line.endsWith('"') ? line.slice(1, -1) : line;
      continue;
    }
    const entry = /^ {2}(\S+) (\S+)$/.exec(line);
    if (!entry || path === null)
      return `an attestation line is not "  <key> <ranges>" under a file: ${JSON.stringify(line.slice(0, 80))}`;
    const [, key, rangeText] = entry as unknown as [string, string, string];
    const human = key.startsWith('h_') || key === 'human';
    const record = key.startsWith('s_') ? sessions[key.split('::')[0] ?? ''] : prompts[key];
    const agent = isObject(record) && isObject(record.agent_id) ? record.agent_id : undefined;
    const tool = human ? null : named(agent?.tool, 60);
    const ranges = parseRanges(rangeText, tool);
    if (!ranges) return `line ranges ${JSON.stringify(rangeText.slice(0, 80))} are malformed`;
    const count = ranges.reduce((sum, r) => sum + r.end - r.start + 1, 0);
    if (human) {
      humanLines += count;
      continue;
    }
    aiLines += count;
    if (tool !== null) tools.add(tool);
    const model = named(agent?.model, 60);
    if (model !== null) models.add(model);
    byPath.set(path, [...(byPath.get(path) ?? []), ...ranges]);
  }
  return { byPath, tools: [...tools], models: [...models], aiLines, humanLines, files: byPath.size };
}

/** Tools as line records name them (lower case) and the names reports show. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  claude: 'Claude Code',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  'github-copilot': 'GitHub Copilot',
  copilot: 'GitHub Copilot',
  codex: 'OpenAI Codex',
  gemini: 'Gemini',
  windsurf: 'Windsurf',
  aider: 'aider',
  opencode: 'OpenCode',
  amp: 'Amp',
  continue: 'Continue',
  junie: 'Junie',
};

/**
 * The name reports show for a tool a line record names (git-ai's `agent_id.tool`, Agent Trace's
 * `tool.name`): `claude` is Claude Code, `cursor` Cursor; a tool not known here keeps its own name.
 * Commit-level attribution and line counts both name assistants through it, so one is never listed twice.
 * @since 1.16
 */
export function assistantOfTool(tool: string): string {
  return TOOL_NAMES[tool.toLowerCase()] ?? tool;
}
