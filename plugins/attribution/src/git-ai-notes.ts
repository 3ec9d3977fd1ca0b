/**
 * Reads a Git AI Standard v3 authorship log (a git note under refs/notes/ai): an attestation
 * section (file paths, then `  <key> <line ranges>` entries), a line of exactly `---`, and a JSON
 * metadata section whose `sessions` (keys `s_…::t_…`) and legacy `prompts` (bare 16-hex keys) name
 * each AI agent (`agent_id.tool`, `agent_id.model`). `h_…` keys are known humans.
 */
export interface NoteAttribution {
  /** `agent_id.tool` of each AI session with attested lines, e.g. `claude`, `cursor`. */
  readonly tools: readonly string[];
  readonly models: readonly string[];
  /** Lines attested to AI sessions, and to known humans. */
  readonly aiLines: number;
  readonly humanLines: number;
  readonly files: number;
}

const ENTRY = /^ {2}(\S+) ([0-9,-]+)$/;

interface AgentRecord {
  readonly agent_id?: { readonly tool?: unknown; readonly model?: unknown };
}

/** Null when the text is not an authorship log, or attests no line to an AI session. */
export function readAuthorshipLog(text: string): NoteAttribution | null {
  const lines = text.split('\n');
  const divider = lines.indexOf('---');
  const attestation = divider >= 0 ? lines.slice(0, divider) : lines;
  const metadata = divider >= 0 ? parseMetadata(lines.slice(divider + 1).join('\n')) : null;
  if (
    divider >= 0 &&
    metadata &&
    typeof metadata.schema_version === 'string' &&
    !metadata.schema_version.startsWith('authorship/')
  )
    return null;
  const aiKeys = new Map<string, number>();
  let humanLines = 0;
  let files = 0;
  let fileHasAi = false;
  for (const line of attestation) {
    if (line.length === 0) continue;
    if (!line.startsWith(' ')) {
      if (fileHasAi) files++;
      fileHasAi = false;
      continue;
    }
    const entry = ENTRY.exec(line);
    if (!entry) continue;
    const [, key, ranges] = entry as unknown as [string, string, string];
    const count = countLines(ranges);
    if (key.startsWith('h_')) {
      humanLines += count;
      continue;
    }
    if (!/^s_[0-9a-f]+::t_[0-9a-f]+$|^[0-9a-f]{7,16}$/.test(key)) continue;
    aiKeys.set(key, (aiKeys.get(key) ?? 0) + count);
    fileHasAi = true;
  }
  if (fileHasAi) files++;
  const aiLines = [...aiKeys.values()].reduce((a, b) => a + b, 0);
  if (aiLines === 0) return null;
  const tools = new Set<string>();
  const models = new Set<string>();
  for (const key of aiKeys.keys()) {
    const record = key.startsWith('s_') ? metadata?.sessions?.[key.split('::')[0]!] : metadata?.prompts?.[key];
    const tool = record?.agent_id?.tool;
    const model = record?.agent_id?.model;
    if (typeof tool === 'string' && tool.length > 0) tools.add(tool.slice(0, 40));
    if (typeof model === 'string' && model.length > 0) models.add(model.slice(0, 60));
  }
  return { tools: [...tools], models: [...models], aiLines, humanLines, files };
}

interface Metadata {
  readonly schema_version?: unknown;
  readonly sessions?: Record<string, AgentRecord>;
  readonly prompts?: Record<string, AgentRecord>;
}

function parseMetadata(json: string): Metadata | null {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Metadata) : null;
  } catch {
    // A note cut at its bounded length, or not JSON: the attestation lines still count.
    return null;
  }
}

/** `1-4,9,12-14` → 8. Malformed parts count nothing; a range is capped so a hostile note cannot claim billions. */
function countLines(ranges: string): number {
  let total = 0;
  for (const part of ranges.split(',')) {
    const match = /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(part);
    if (!match) continue;
    const start = Number(match[1]);
    const end = match[2] === undefined ? start : Number(match[2]);
    if (end >= start) total += Math.min(end - start + 1, 1_000_000);
  }
  return total;
}
