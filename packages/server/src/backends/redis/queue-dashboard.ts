import type { Middleware } from 'koa';
import type { Queue } from 'bullmq';

import { QUEUE_DASHBOARD_PATH } from './queue-dashboard-path.js';

/**
 * bull-board's view of the analysis queue (waiting, active, failed jobs; retry and clean actions),
 * loaded only when `queue.dashboard` is on. Read-only would not let an operator retry a failed
 * job; the API token is what keeps strangers out.
 */
export async function queueDashboard(queue: Queue, basePath = ''): Promise<Middleware> {
  const { createBullBoard } = await import('@bull-board/api');
  const { BullMQAdapter } = await import('@bull-board/api/bullMQAdapter');
  const { KoaAdapter } = await import('@bull-board/koa');
  const adapter = new KoaAdapter();
  // Its pages link their assets by absolute path: behind a prefix, the prefix is part of them.
  adapter.setBasePath(basePath + QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(queue)],
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Cadence queue' } },
  });
  return adapter.registerPlugin();
}
