/** The path the queue dashboard is served under (behind the API token like every guarded route). */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';
