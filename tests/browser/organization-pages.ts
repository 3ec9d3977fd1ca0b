// The organization view's fixtures and screenshot: a few repositories with months of human work and
// a growing assistant share (their authors across repositories), scanned by the real CLI into the
// HTML page docs/organization.md shows.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import {
  createRepository,
  makeTempDir,
  runCadence,
  type FixtureCommit,
  type TempDir,
} from '@cadence-detect/test-support';

const PEOPLE = [
  { name: 'Ada Example', email: 'ada@example.test' },
  { name: 'Grace Sample', email: 'grace@example.test' },
  { name: 'Linus Demo', email: 'linus@example.test' },
];

/** `months` of work from January 2025: human at first, then a share of commits made with Claude. */
function history(months: number, assisted: number, offset: number): FixtureCommit[] {
  const out: FixtureCommit[] = [];
  const start = Date.UTC(2025, 0, 6, 9) / 1000;
  for (let m = 0; m < months; m++) {
    for (let i = 0; i < 6; i++) {
      const n = m * 6 + i;
      const withClaude = m >= months / 2 && i < Math.round(assisted * 6 * (m / months));
      out.push({
        message: withClaude
          ? `Add handler for case ${n}\n\nCo-Authored-By: Claude <noreply@anthropic.com>`
          : `Fix parser edge case ${n}`,
        date: start + m * 30 * 86_400 + i * 3 * 86_400 + ((n * 977 + offset) % 5400),
        author: PEOPLE[(n + offset) % PEOPLE.length]!,
        addLines: 3 + ((n * 7) % 11),
      });
    }
  }
  return out;
}

export interface OrganizationFixture {
  readonly work: TempDir;
  /** The `--repos` file listing the repositories by path. */
  readonly list: string;
  readonly names: readonly string[];
}

export async function organizationFixture(): Promise<OrganizationFixture> {
  const work = await makeTempDir('cadence-org-pages-');
  const names = ['acme/api', 'acme/web', 'acme/tools'];
  const shares = [0.8, 0.3, 0];
  for (const [i, name] of names.entries()) {
    const dir = path.join(work.path, 'repos', name);
    await mkdir(dir, { recursive: true });
    await createRepository(dir, history(10, shares[i]!, i * 13));
  }
  const list = path.join(work.path, 'repositories.txt');
  await writeFile(list, names.map((n) => `repos/${n}`).join('\n') + '\n');
  return { work, list, names };
}

/** Scans the fixture with the CLI into `org.html` (and each repository's report under `reports/`). */
export async function scanFixture(fixture: OrganizationFixture): Promise<string> {
  const out = path.join(fixture.work.path, 'org.html');
  const run = await runCadence(
    ['scan', '--repos', fixture.list, '-o', out, '--reports-dir', path.join(fixture.work.path, 'reports')],
    { cwd: fixture.work.path },
  );
  if (run.code !== 0) throw new Error(`cadence scan failed (${run.code}): ${run.stderr}`);
  return out;
}

export async function takeOrganizationScreenshot(outDir: string, browser: Browser): Promise<string[]> {
  const fixture = await organizationFixture();
  try {
    const file = await scanFixture(fixture);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
    const page = await context.newPage();
    await page.goto(`file://${file}`);
    const shot = path.join(outDir, 'organization.png');
    await page.screenshot({ path: shot, fullPage: true });
    await context.close();
    return [shot];
  } finally {
    await fixture.work.remove();
  }
}
