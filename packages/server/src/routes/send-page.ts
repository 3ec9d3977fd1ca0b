import type { Context } from 'koa';

/** An HTML page and the Content-Security-Policy written for it. */
export interface Page {
  readonly html: string;
  readonly policy: string;
}

/**
 * The one way a route answers with an HTML page (the dashboard, a job's live page, a report): its
 * policy as a header, never framed by another site, never cached, its type never sniffed.
 */
export function sendPage(ctx: Context, page: Page, status = 200): void {
  ctx.set('Content-Security-Policy', page.policy);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page.html;
}
