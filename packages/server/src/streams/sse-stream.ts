import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

/**
 * A Server-Sent Events response: `data: <JSON>` and a blank line per message, a `: keep-alive`
 * comment whenever nothing was sent for `keepAliveMs`, no timeout on the socket (docs/http-api.md, GET or POST /api/stream).
 */
export class SseStream {
  private readonly body = new PassThrough();
  private readonly timer: NodeJS.Timeout;
  private lastWrite = Date.now();
  private closed = false;

  constructor(ctx: Context, keepAliveMs: number) {
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    ctx.body = this.body;
    this.timer = setInterval(
      () => {
        if (Date.now() - this.lastWrite >= keepAliveMs) this.write(': keep-alive\n\n');
      },
      Math.max(50, Math.floor(keepAliveMs / 3)),
    );
    this.timer.unref();
  }

  send(event: Record<string, unknown>): void {
    this.write(`data: ${JSON.stringify(event)}\n\n`);
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.body.end();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private write(chunk: string): void {
    if (this.closed) return;
    this.lastWrite = Date.now();
    this.body.write(chunk);
  }
}
