import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { escapeMarkdown } from '@cadence-detect/forge-kit';
import { createRepository, humanHistory, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

/** Markdown rendered as GitHub renders it (CommonMark with GFM's tables and autolinks). */
const render = (markdown: string): string => micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });

/** What a reader sees: the HTML's text, entities decoded. */
const visibleText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

const HOSTILE = [
  'Fix https://evil.example/login?next=1',
  'see http://evil.example and HTTPS://EVIL.EXAMPLE',
  'www.evil.example/free and WWW.evil.example',
  'mail foo@evil.example or mailto:foo@evil.example',
  'xmpp:foo@evil.example',
  '<https://evil.example> [click](https://evil.example) ![x](https://evil.example/p.png)',
  '<img src=x onerror=alert(1)> @octocat #12 | cell',
];

/**
 * A request's text (commit subjects, author names, reasons) in a job summary, a check run or a
 * merge request note reaches the reader as text: no link forms, not even GFM's bare-URL autolinks.
 */
describe('a request\u2019s text in Markdown never becomes a link', function () {
  this.timeout(60_000);

  it('escapeMarkdown: rendered as GitHub renders Markdown, no link, image or HTML, and the reader sees the text as written', () => {
    for (const text of HOSTILE) {
      const html = render(escapeMarkdown(text));
      expect(html, text).to.not.match(/<(a|img)\b/i);
      expect(visibleText(html).trim(), text).to.equal(text);
    }
  });

  describe('the job summary of cadence ci github', () => {
    let work: TempDir;
    before(async () => {
      work = await makeTempDir('cadence-md-links-');
    });
    after(() => work.remove());

    it('commit subjects with URLs, www. names and addresses are listed as text', async () => {
      const dir = path.join(work.path, 'repo');
      await mkdir(dir);
      const repo = await createRepository(dir, humanHistory(8));
      const base = repo.hashes.at(-1)!;
      const subjects = HOSTILE.slice(0, 5);
      for (const [i, subject] of subjects.entries()) {
        await repo.commit({
          message: `${subject}\n\nCo-authored-by: Claude <noreply@anthropic.com>\n`,
          date: Date.UTC(2025, 5, 2, 10 + i) / 1000,
          addLines: 40,
        });
      }
      const eventFile = path.join(work.path, 'event.json');
      await writeFile(
        eventFile,
        JSON.stringify({ pull_request: { base: { sha: base }, head: { sha: repo.hashes.at(-1)! } } }),
      );
      const summary = path.join(work.path, 'summary.md');
      await writeFile(summary, '');
      const run = await runCadence(['ci', 'github'], {
        cwd: dir,
        env: {
          GITHUB_WORKSPACE: dir,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventFile,
          GITHUB_STEP_SUMMARY: summary,
          INPUT_SARIF: '',
        },
      });
      expect(run.code, run.stderr).to.equal(0);
      const html = render(await readFile(summary, 'utf8'));
      expect(html).to.contain('<table>');
      expect(html).to.not.match(/<(a|img)\b/i);
      const text = visibleText(html);
      for (const subject of subjects) expect(text, subject).to.contain(subject);
    });
  });
});
