// Analysis time of a 5 MB page (parse5 document model + every website-signature strategy, through the
// engine) as a ratio against parse5 parsing the same page alone, in the same run. Target: <= 2.0.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'parse5';
import { runPlugin } from '@cadence-detect/plugin-testkit';
import websiteSignature from '@cadence-detect/plugin-website-signature';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, '..', 'plugins', 'website-signature', 'test', 'fixtures');
const sections = ['ai-listicle.html', 'human-post.html', 'ai-casual.html'].map((name) => {
  const html = readFileSync(path.join(fixtures, name), 'utf8');
  return html.slice(html.indexOf('<body>') + 6, html.lastIndexOf('</body>'));
});
let body = '';
for (let i = 0; Buffer.byteLength(body) < 5 * 1024 * 1024; i++)
  body += `<section id="s${i}">${sections[i % sections.length]}</section>\n`;
const page = `<!doctype html><html lang="en"><head><title>Large page</title></head><body>${body}</body></html>`;

function best(runs, fn) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    min = Math.min(min, performance.now() - started);
  }
  return min;
}

async function bestAsync(runs, fn) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    min = Math.min(min, performance.now() - started);
  }
  return min;
}

const parseOnly = best(7, () => parse(page));
let score = 0;
const analysis = await bestAsync(7, async () => {
  const run = await runPlugin(websiteSignature, { html: page, url: 'https://bench.invalid/' });
  score = run.result.overall_score;
});
const ratio = analysis / parseOnly;
console.log(`page: ${(Buffer.byteLength(page) / 1048576).toFixed(1)} MB`);
console.log(`parse5 parse alone: ${parseOnly.toFixed(0)} ms`);
console.log(`document model + website-signature strategies: ${analysis.toFixed(0)} ms (score ${score})`);
console.log(`ratio: ${ratio.toFixed(2)} (target <= 2.0) ${ratio <= 2 ? 'OK' : 'MISSED'}`);
