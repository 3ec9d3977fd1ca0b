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
}

export function describeEvent(data: JobEventData): string {
  if (data.event === 'strategy') return `strategy ${data.name}: score ${Number(data.score).toFixed(2)}, ${data.detections} detections`;
  if (data.event === 'progress') return `${data.strategy ? `${data.strategy}: ` : ''}${data.commits_analyzed} of ${data.total_commits} commits${typeof data.detections === 'number' ? `, ${data.detections} detections` : ''}`;
  if (data.event === 'parse') return `parsed: ${data.elements} elements`;
  return data.event + (data.message ? `: ${data.message}` : data.repo ? `: ${data.repo}` : data.url ? `: ${data.url}` : '');
}
