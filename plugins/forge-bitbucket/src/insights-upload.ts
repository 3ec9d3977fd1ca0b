import { request } from 'node:http';
import type { InsightsAnnotation, InsightsReport } from './code-insights.js';
import { ANNOTATIONS_PER_REQUEST, INSIGHTS_REPORT_ID } from './code-insights.js';

/**
 * Pipelines' own authenticated proxy to Bitbucket's API: a step reaches `http://api.bitbucket.org`
 * through it with the pipeline's credentials, no token of the user's needed. Only the Reports API
 * is reached this way.
 */
export const PIPELINES_PROXY = 'http://localhost:29418';
const API = 'http://api.bitbucket.org/2.0';
const TIMEOUT_MS = 30_000;

/**
 * Sends the report, then its annotations 100 at a time, through the proxy (a forward proxy: each
 * request names the absolute API URL). Resolves with the number of annotations sent; rejects with
 * a sentence (the call and the answer's status) when Bitbucket refuses.
 */
export async function uploadInsights(
  proxy: string,
  repository: string,
  commit: string,
  insights: { report: InsightsReport; annotations: readonly InsightsAnnotation[] },
): Promise<number> {
  const base = `${API}/repositories/${repository
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/')}/commit/${commit}/reports/${INSIGHTS_REPORT_ID}`;
  await send(proxy, 'PUT', base, insights.report);
  for (let at = 0; at < insights.annotations.length; at += ANNOTATIONS_PER_REQUEST)
    await send(proxy, 'POST', `${base}/annotations`, insights.annotations.slice(at, at + ANNOTATIONS_PER_REQUEST));
  return insights.annotations.length;
}

function send(proxy: string, method: 'PUT' | 'POST', url: string, body: unknown): Promise<void> {
  const via = new URL(proxy);
  const target = new URL(url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: via.hostname,
        port: via.port || 80,
        method,
        path: url,
        headers: {
          host: target.host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
        timeout: TIMEOUT_MS,
      },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer = (answer + chunk).slice(0, 300)));
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else
            reject(
              new Error(
                `Bitbucket answered ${status} to ${method} ${target.pathname}${answer ? `: ${answer.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`,
              ),
            );
        });
      },
    );
    call.on('timeout', () => call.destroy(new Error(`no answer from ${via.host} in ${TIMEOUT_MS / 1000} s`)));
    call.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ECONNREFUSED' ? `nothing listens at ${via.host} (not in a Pipelines step?)` : error.message,
        ),
      ),
    );
    call.end(text);
  });
}
