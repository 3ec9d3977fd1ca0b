// `node bench/corpus/screen-diff-lines.mjs`: a screen, not a feature of the engine. Appends eight
// features of each corpus commit's added code lines (read with `git show`, one process per commit)
// to the corpus the last `pnpm bench corpus` built, prints their means per assistant, and leaves
// the corpus for `node bench/corpus.mjs --reuse` to validate with them (docs/scoring.md: recall
// 0.550 → 0.559 on 48 repositories, not kept). Build the corpus again to drop them.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mirrorOf } from './build.mjs';

const corpusFile = path.join(tmpdir(), 'cadence-corpus.json');
const c = JSON.parse(readFileSync(corpusFile, 'utf8'));
if (c.features.includes('diff_blank_share')) throw new Error('this corpus already has the screened features: build it again first');
const all = [...c.rows, ...(c.eraCheck ?? [])];
const byRepo = new Map();
for (const r of all) { if (!byRepo.has(r.repo)) byRepo.set(r.repo, []); byRepo.get(r.repo).push(r); }
const CODE = /\.(ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|cs|swift|m|mm|c|h|cc|cpp|hpp|rb|php|scala|sh|lua|dart|zig|ex|exs|vue|svelte)$/i;
const COMMENT = /^\s*(\/\/|#(?!include|define|if|endif|else|pragma|import|!)|\/\*|\*(?!\*?\s*$)|\*\s|"""|'''|--\s)/;
let failed = 0;
const out = new Map();
for (const [repo, rows] of byRepo) {
  const cwd = mirrorOf(repo);
  for (const r of rows) {
    const p = spawnSync('git', ['show', '--format=', '--unified=0', '--no-color', '--no-ext-diff', r.hash], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
    const f = { added: 0, blank: 0, comment: 0, sentenceComment: 0, len: 0, nonAscii: 0, docBlock: 0, todo: 0 };
    if (p.status !== 0) failed++;
    let file = null;
    for (const line of (p.stdout ?? '').split('\n')) {
      if (line.startsWith('+++ ')) { file = line.slice(4); continue; }
      if (!line.startsWith('+') || !file || !CODE.test(file) || /(^|\/)(vendor|node_modules|dist|third_party)\//.test(file)) continue;
      if (f.added >= 3000) break;
      const t = line.slice(1);
      f.added++;
      if (!t.trim()) { f.blank++; continue; }
      f.len += Math.min(t.length, 200);
      // eslint-disable-next-line no-control-regex -- the ASCII range, NUL included
      if (/[^\x00-\x7f]/.test(t)) f.nonAscii++;
      if (/^\s*(\/\*\*|"""|''')/.test(t)) f.docBlock++;
      if (/\b(TODO|FIXME|XXX|HACK)\b/.test(t)) f.todo++;
      if (COMMENT.test(t)) { f.comment++; if (/[a-z]{3,}[.!]\s*(\*\/)?\s*$/.test(t) && /\s\w+\s\w+\s/.test(t)) f.sentenceComment++; }
    }
    const nb = Math.max(1, f.added - f.blank);
    out.set(r, [f.added ? f.blank / f.added : 0, f.comment / nb, f.sentenceComment / nb, Math.log1p(f.len / nb), f.nonAscii / nb, f.docBlock / nb, f.todo / nb, f.added ? 1 : 0]);
  }
  process.stderr.write(`${repo} done\n`);
}
for (const r of all) r.features.push(...out.get(r));
c.features.push('diff_blank_share', 'diff_comment_share', 'diff_sentence_comment_share', 'diff_line_length', 'diff_non_ascii', 'diff_doc_blocks', 'diff_todo', 'diff_has_code');
writeFileSync(corpusFile, JSON.stringify(c));
// univariate: mean per group
const names = c.features.slice(-8);
const groups = {};
for (const r of c.rows) { const k = r.label === 'human' ? 'human' : r.assistant; (groups[k] ??= []).push(r.features.slice(-8)); }
groups['era-check'] = c.eraCheck.map((r) => r.features.slice(-8));
console.log(`commits whose diff git could not show (objects missing from the mirror; features 0): ${failed}`);
console.log('group'.padEnd(14), names.map((n) => n.replace('diff_', '').slice(0, 9).padStart(10)).join(''));
for (const [k, v] of Object.entries(groups).sort((a, b) => b[1].length - a[1].length)) {
  if (v.length < 40) continue;
  console.log(k.padEnd(14), names.map((_, j) => (v.reduce((s, x) => s + x[j], 0) / v.length).toFixed(3).padStart(10)).join(''));
}
