// Reads mocha JSON reports. With a file and a label: prints that run's failures and counts.
// With --total and files: prints the final `N passed, N failed` line and exits non-zero on any failure
// (a missing or unreadable report counts as one failure, so a crashed run never looks green).
import { readFileSync } from 'node:fs';

function load(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const args = process.argv.slice(2);
if (args[0] === '--total') {
  let passed = 0;
  let failed = 0;
  for (const file of args.slice(1)) {
    const report = load(file);
    if (!report) {
      failed += 1;
      continue;
    }
    passed += report.stats.passes;
    failed += report.stats.failures + (report.stats.pending ?? 0);
    if (report.stats.tests === 0) failed += 1;
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
} else {
  const [file, label] = args;
  const report = load(file);
  if (!report) {
    console.log(`${label}: no report (the test run crashed); see ${file.replace(/\.json$/, '.log')}`);
    process.exit(1);
  }
  for (const failure of report.failures) {
    console.log(`FAIL [${label}] ${failure.fullTitle}\n  ${String(failure.err?.message ?? '').split('\n').join('\n  ')}`);
  }
  const s = report.stats;
  console.log(`${label}: ${s.passes} passed, ${s.failures} failed, ${s.pending} pending, ${Math.round(s.duration / 1000)}s`);
  // Where the time goes (tests only: hooks, such as a server started in before(), are not counted).
  const byFile = new Map();
  for (const test of report.tests ?? []) {
    const file = String(test.file ?? '?').replace(`${process.cwd()}/`, '');
    byFile.set(file, (byFile.get(file) ?? 0) + (test.duration ?? 0));
  }
  const slowest = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`${label}: slowest files (their tests' time): ${slowest.map(([f, ms]) => `${f} ${Math.round(ms / 1000)}s`).join(', ')}`);
}
