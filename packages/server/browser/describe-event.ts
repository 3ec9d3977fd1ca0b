/**
 * One step of a job's event stream (docs/http-api.md) as a line of text: the jobs list's status
 * cell and the job page's progress list say it the same way. Bundled into both scripts.
 */
export interface JobEventData {
  readonly event: string;
  readonly name?: string;
  readonly score?: number;
  readonly detections?: number;
  readonly strategy?: string;
  readonly commits_analyzed?: number;
  readonly total_commits?: number;
  readonly elements?: number;
  readonly message?: string;
  readonly repo?: string;
  readonly url?: string;
  readonly overall_score?: number;
  readonly error?: string;
  /** An organization job's events: `listed` (total), then one `repository` per repository job that ended. */
  readonly total?: number;
  readonly done?: number;
  readonly repository?: string;
  readonly status?: string;
  readonly error_code?: string | null;
  readonly assessment?: string;
  readonly ai_share?: number;
}

export function describeEvent(data: JobEventData): string {
  if (data.event === 'strategy')
    return `strategy ${data.name}: score ${Number(data.score).toFixed(2)}, ${data.detections} detections`;
  if (data.event === 'progress')
    return `${data.strategy ? `${data.strategy}: ` : ''}${data.commits_analyzed} of ${data.total_commits} commits${typeof data.detections === 'number' ? `, ${data.detections} detections` : ''}`;
  if (data.event === 'listed') return `listed: ${data.total} repositories`;
  if (data.event === 'repository') {
    const verdict = data.assessment
      ? `${data.assessment}, AI share ${Number(data.ai_share).toFixed(2)}`
      : `${data.status}${data.error_code ? ` (${data.error_code})` : ''}`;
    return `${data.done} of ${data.total}: ${data.repository}: ${verdict}`;
  }
  if (data.event === 'parse') return `parsed: ${data.elements} elements`;
  return (
    data.event + (data.message ? `: ${data.message}` : data.repo ? `: ${data.repo}` : data.url ? `: ${data.url}` : '')
  );
}
