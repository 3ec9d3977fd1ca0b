// `pnpm bench`: every benchmark in turn. Figures are ratios against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BENCHMARKS = [
  'corpus.mjs',
  'pages.mjs',
  'history.mjs',
  'history-memory.mjs',
  'website.mjs',
  'website-responsiveness.mjs',
  'webhook-load.mjs',
  'slow-senders.mjs',
  'intake-cpu.mjs',
  'push-mirrors.mjs',
  'workers-throughput.mjs',
  'cli-startup.mjs',
  'report.mjs',
  'scan.mjs',
  'lines.mjs',
  'lines-one-pass.mjs',
  // The one pass against blame on real repositories: pnpm bench lines-agreement [<repository>...].
  'lines-agreement.mjs',
  // Against the ecosystem issue's starting commit (built beside the checkout): the CLI's cold install.
  'install.mjs',
  // Only with a commit to compare with: pnpm bench against <commit> [history webhook report].
  'against.mjs',
];
const only = process.argv[2];
// `pnpm bench corpus --write`: what follows the benchmark's name goes to it (only with a name).
const passed = only ? process.argv.slice(3) : [];
let failed = false;
for (const name of BENCHMARKS) {
  if (only && !name.startsWith(only)) continue;
  console.log(`\n== ${name}`);
  const result = spawnSync(process.execPath, [path.join(here, name), ...passed], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
