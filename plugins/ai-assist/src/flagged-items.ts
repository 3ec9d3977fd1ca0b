import type { AnalysisContext, AnalysisResult } from '@cadence-detect/plugin-sdk';
import type { AiSettings } from './options.js';

/** One thing sent for a verdict: a suspicious commit, or a flagged passage of a page. */
export interface FlaggedItem {
  /** What the model sees: the commit's unique abbreviation, or `p1`, `p2`… for passages. */
  readonly id: string;
  /** For commits: the full hash the verdict maps back to. */
  readonly commit?: string;
  readonly text: string;
  /** For passages: the detection `element` the verdict maps back to. */
  readonly element?: string;
}

const DIFF_EXCERPT_BYTES = 4000;

/**
 * Only what the heuristics flagged leaves the machine (docs/ai.md): the strongest suspicious
 * commits with their stats, message and a bounded diff excerpt, or the flagged passages of a page,
 * within `max_items_per_job` and `max_chars_per_job`.
 */
export async function collectItems(
  result: AnalysisResult,
  context: AnalysisContext,
  caps: Pick<AiSettings, 'max_items_per_job' | 'max_chars_per_job'>,
): Promise<FlaggedItem[]> {
  const { max_items_per_job: maxItems, max_chars_per_job: maxChars } = caps;
  const items: FlaggedItem[] = [];
  let chars = 0;
  const take = (item: FlaggedItem): boolean => {
    if (items.length >= maxItems) return false;
    const room = maxChars - chars;
    if (room < 200) return false;
    const text = item.text.length > room ? `${item.text.slice(0, room - 20)}\n[… truncated]` : item.text;
    items.push({ ...item, text });
    chars += text.length;
    return true;
  };
  if (result.source_type === 'git' && context.kind === 'repository') {
    const byHash = new Map(context.commits.map((c) => [c.hash, c]));
    for (const suspicion of [...result.suspicions].sort((a, b) => b.confidence - a.confidence)) {
      // What the history says outright needs no second opinion: only inferred suspicions are sent.
      if (suspicion.evidence === 'explicit') continue;
      const commit = byHash.get(suspicion.commit);
      if (!commit) continue;
      const diff = await context.diffExcerpt(commit.hash, DIFF_EXCERPT_BYTES);
      const text = [
        `commit ${commit.shortHash} by ${commit.authorName} at ${new Date(commit.authorTime * 1000).toISOString()}`,
        `+${commit.additions} -${commit.deletions} lines in ${commit.filesChanged} files; ${commit.previousAuthorTime === null ? 'first commit of this author' : `${commit.authorTime - commit.previousAuthorTime}s after the author's previous commit`}`,
        `heuristics: ${suspicion.reasons.join('; ')}`,
        `message: ${commit.subject}${commit.body ? `\n${commit.body}` : ''}`,
        'diff excerpt:',
        diff,
      ].join('\n');
      if (!take({ id: commit.shortHash, commit: commit.hash, text })) break;
    }
  } else if (result.source_type === 'web') {
    const seen = new Set<string>();
    for (const detection of [...result.detections].sort((a, b) => b.confidence - a.confidence)) {
      if (!detection.element || seen.has(detection.element) || detection.element === 'page') continue;
      seen.add(detection.element);
      if (!take({ id: `p${items.length + 1}`, text: detection.element, element: detection.element })) break;
    }
  }
  return items;
}
