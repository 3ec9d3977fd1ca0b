// `node bench/corpus/measure.mjs owner/name…`: the fields of a repositories.yaml entry, measured with
// git on a mirror (CADENCE_MIRRORS, default /work/.mirror): the dominant language of the newest tree,
// the assistants the label rules name, the commits they label (`attributed`), the human commits
// before 2021 (no rule, no bot or automation account) and the first commit's date. Non-merge commits
// of HEAD, as build.mjs reads them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compileRules } from '@cadence-detect/plugin-attribution';
import { mirrorOf } from './build.mjs';
import { assistantOf, labelOf, loadAssistantNames, loadLabelRules } from './corpus-labels.mjs';

const LANGUAGES = { ts: 'typescript', tsx: 'typescript', js: 'javascript', mjs: 'javascript', jsx: 'javascript', py: 'python', rs: 'rust', go: 'go', rb: 'ruby', java: 'java', kt: 'kotlin', cs: 'csharp', swift: 'swift', m: 'objective-c', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', zig: 'zig', php: 'php', ex: 'elixir', exs: 'elixir', lua: 'lua', dart: 'dart', scala: 'scala', sh: 'shell', vue: 'vue', svelte: 'svelte', hs: 'haskell', ml: 'ocaml', clj: 'clojure', r: 'r', jl: 'julia', nim: 'nim' };
const rules = loadLabelRules();
const names = loadAssistantNames();
const automation = compileRules().automation;
const isAutomation = (c) => automation.some((r) => r.pattern.test(c.authorName) || r.pattern.test(c.authorEmail));
const CUTOFF = Date.parse('2021-01-01') / 1000;

export function measure(repo) {
  const mirror = mirrorOf(repo);
  if (!existsSync(mirror)) return null;
  const git = (args) => execFileSync('git', args, { cwd: mirror, maxBuffer: 1 << 30, encoding: 'utf8' });
  const log = git(['log', '--no-merges', '--format=%an%x1f%ae%x1f%cn%x1f%ce%x1f%at%x1f%s%x1f%b%x1e', 'HEAD']);
  const commits = log.split('\x1e').map((r) => r.replace(/^\n/, '')).filter(Boolean).map((r) => {
    const [authorName, authorEmail, committerName, committerEmail, at, subject, body] = r.split('\x1f');
    return { authorName, authorEmail, committerName, committerEmail, authorTime: Number(at), subject, body: (body ?? '').trim() };
  });
  const perAssistant = {};
  let attributed = 0;
  let human = 0;
  for (const c of commits) {
    const label = labelOf(c, rules, CUTOFF, isAutomation);
    if (label === 'human') human++;
    if (label !== 'assistant') continue;
    attributed++;
    const a = assistantOf(c, rules, names);
    perAssistant[a] = (perAssistant[a] ?? 0) + 1;
  }
  const extensions = {};
  for (const file of git(['ls-tree', '-r', '--name-only', 'HEAD']).split('\n')) {
    const lang = LANGUAGES[path.extname(file).slice(1).toLowerCase()];
    if (lang && !/(^|\/)(vendor|node_modules|third_party|dist)\//.test(file)) extensions[lang] = (extensions[lang] ?? 0) + 1;
  }
  const language = Object.entries(extensions).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'unknown';
  const first = Math.min(...commits.map((c) => c.authorTime).filter((t) => t > Date.parse('2005-01-01') / 1000));
  return { repo, language, commits: commits.length, attributed, per_assistant: perAssistant, human_before_2021: human, first_commit: new Date(first * 1000).toISOString().slice(0, 10) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const repo of process.argv.slice(2)) {
    const m = measure(repo);
    if (!m) {
      console.log(`# ${repo}: no mirror`);
      continue;
    }
    const assistants = Object.entries(m.per_assistant).sort((a, b) => b[1] - a[1]).map(([a]) => a);
    console.log(`  - repo: ${repo}\n    language: ${m.language}\n    assistants: [${assistants.join(', ')}]\n    attributed: ${m.attributed}\n    human_before_2021: ${m.human_before_2021}\n    first_commit: ${m.first_commit}\n    # ${m.commits} non-merge commits; per assistant ${JSON.stringify(m.per_assistant)}`);
  }
}
