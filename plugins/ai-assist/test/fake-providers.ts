import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer, type TestHttpServer } from '@cadence-detect/test-support';

export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
  readonly at: number;
}

export type Responder = (request: RecordedRequest, index: number, res: ServerResponse) => void;

/** A fake provider on 127.0.0.1 that speaks the real wire format and records every request. */
export async function fakeProvider(
  respond: Responder,
): Promise<{ server: TestHttpServer; requests: RecordedRequest[]; closed: () => number; answered: () => number }> {
  const requests: RecordedRequest[] = [];
  let closedEarly = 0;
  let answered = 0;
  const server = await startHttpServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const request = {
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
        at: Date.now(),
      };
      requests.push(request);
      res.on('close', () => {
        if (!res.writableFinished) closedEarly++;
      });
      res.on('finish', () => answered++);
      respond(request, requests.length - 1, res);
    });
  });
  return { server, requests, closed: () => closedEarly, answered: () => answered };
}

/** The item ids a request asked about ("### item <id>"). */
export function askedIds(request: RecordedRequest): string[] {
  const text = JSON.stringify(request.body);
  return [...text.matchAll(/### item ([\w-]+)/g)].map((m) => m[1]!);
}

export function verdictsJson(ids: readonly string[], assessment = 'ai_generated', confidence = 0.9): string {
  return JSON.stringify({
    verdicts: ids.map((item) => ({
      item,
      assessment,
      confidence,
      reasoning: 'uniform boilerplate',
      indicators: ['generic names'],
    })),
  });
}

export function openaiAnswer(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    }),
  );
}

export function anthropicAnswer(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'end_turn',
      stop_sequence: null,
      content: [{ type: 'text', text }],
      usage: { input_tokens: 80, output_tokens: 15 },
    }),
  );
}

export function status(res: ServerResponse, code: number, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { type: 'error', message: `status ${code}` } }));
}
