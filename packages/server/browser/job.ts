/**
 * A running job's page (GET /jobs/:id/report before the report exists): each event of the job's
 * stream as a line of progress (fetch, parse, each strategy), then, on `complete`, the page reloads
 * into the report; on `error`, the failure and its code. Text only, never markup.
 */
import { byId } from './by-id.js';
import { describeEvent, type JobEventData } from './describe-event.js';

const line = (text: string): void => {
  const li = document.createElement('li');
  li.textContent = text;
  byId('progress').append(li);
};
const source = new EventSource('events');
source.onmessage = (e: MessageEvent<string>) => {
  const data = JSON.parse(e.data) as JobEventData;
  byId('status').textContent = data.event === 'complete' ? 'completed' : data.event === 'error' ? 'failed' : 'running';
  if (data.event === 'complete') {
    source.close();
    line(typeof data.overall_score === 'number' ? `complete: score ${data.overall_score.toFixed(2)}` : 'complete');
    location.reload();
    return;
  }
  if (data.event === 'error') {
    source.close();
    line(`failed: ${data.error || ''} ${data.message || ''}`);
    return;
  }
  if (data.event !== 'detection') line(describeEvent(data));
};
