// The dashboard's pages as the screenshots in docs/images show them: a real server (the built CLI)
// with a token, two finished jobs from git repositories served on 127.0.0.1, and one job held
// running on a page that answers only when told (so its live page can be shown mid-run).
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { eventually, makeTempDir, startCadenceServer, startHttpServer } from '@cadence-detect/test-support';
import { serveRepositories } from '../server/fixtures.js';

const TOKEN = 'screenshot-token-0123456789abcdef';

export async function takeDashboardScreenshots(outDir: string, browser: Browser): Promise<string[]> {
  const work = await makeTempDir('cadence-dashboard-shots-');
  const git = await serveRepositories(work.path);
  let release: () => void = () => undefined;
  const site = await startHttpServer((_req, res) => {
    release = () => {
      release = () => undefined;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Notes</title></head><body><main>${'<p>The station opened in 1911 and closed to passengers in 1966.</p>'.repeat(20)}</main></body></html>`,
      );
    };
  });
  const server = await startCadenceServer({
    cwd: work.path,
    config: { security: { allowed_networks: ['127.0.0.0/8'] } },
    env: { CADENCE_API_TOKEN: TOKEN },
  });
  const written: string[] = [];
  try {
    const api = (route: string, body: unknown) =>
      fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const repo of ['acme/human.git', 'acme/burst.git']) {
      const { id } = (await (await api('/api/analyze/repository', { url: git.daemon.url(repo) })).json()) as {
        id: string;
      };
      await eventually(
        async () => {
          const job = (await (
            await fetch(`${server.url}/jobs/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } })
          ).json()) as { status: string };
          return job.status !== 'queued' && job.status !== 'running';
        },
        `job ${id} to end`,
        { everyMs: 200 },
      );
    }
    const running = (await (await api('/api/analyze/website', { url: site.url('/notes') })).json()) as { id: string };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const shot = async (name: string): Promise<void> => {
      const file = path.join(outDir, `${name}.png`);
      await page.screenshot({ path: file });
      written.push(file);
    };
    await page.goto(`${server.url}/`);
    await shot('dashboard-sign-in');
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
    await page.waitForSelector('#jobs-body tr[data-status="completed"]');
    await page.waitForSelector('#plugins li');
    await shot('dashboard');
    await page.goto(`${server.url}/jobs/${running.id}/report`);
    await page.waitForSelector('#progress li');
    await shot('dashboard-job-running');
    release();
    await page.waitForSelector('section.verdict', { timeout: 30_000 });
    await context.close();
  } finally {
    // The server first: nothing below may leave it running.
    await server.stop();
    release();
    await site.close();
    await git.close();
    await work.remove();
  }
  return written;
}
