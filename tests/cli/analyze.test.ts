import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  burstHistory,
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  type TempDir,
} from '@cadence-detect/test-support';

interface JsonReport {
  report?: { tool: string; version: string; generated_at: string; configuration: Record<string, unknown> };
  ai_share: number;
  scoring: string;
  attributed_commits: number;
  assistants: Record<string, number>;
  metrics: Record<string, number>;
  detections: { strategy: string; evidence: string }[];
  overall_score: number;
  assessment: string;
  total_commits: number;
  suspicious_commits: number;
  suspicions: { commit_hash: string; reasons: string[] }[];
  strategy_results: { name: string; error: string | null }[];
}

describe('cadence analyze (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let human: string;
  let burst: string;
  let attributed: string;
  /** The heuristic scoring (no calibrated strategy): the threshold strategies alone decide. */
  let heuristic: string;

  before(async () => {
    work = await makeTempDir('cadence-cli-');
    human = path.join(work.path, 'human');
    burst = path.join(work.path, 'burst');
    attributed = path.join(work.path, 'attributed');
    await mkdir(human);
    await mkdir(burst);
    await mkdir(attributed);
    await createRepository(human, humanHistory(30));
    await createRepository(burst, burstHistory(8));
    await createRepository(attributed, [
      ...humanHistory(4),
      ...burstHistory(6).map((c) => ({
        ...c,
        message: `${c.message}\n\nCo-Authored-By: Claude <noreply@anthropic.com>`,
      })),
    ]);
    heuristic = path.join(work.path, 'heuristic.yaml');
    await writeFile(heuristic, 'strategies:\n  disabled: [commit-model]\n');
  });
  after(() => work.remove());

  const analyze = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCadence(['analyze', ...args], { cwd: work.path, env });

  it('scores a burst history above a human one, which is clean; the threshold strategies give the reasons', async () => {
    const h = JSON.parse((await analyze([human, '--json'])).stdout) as JsonReport;
    const burstRun = await analyze([burst, '--json']);
    expect(burstRun.code, burstRun.stderr).to.equal(0);
    const b = JSON.parse(burstRun.stdout) as JsonReport;
    expect(h.total_commits).to.equal(30);
    expect(h.scoring).to.equal('model');
    expect(h.assessment).to.equal('clean');
    expect(h.ai_share).to.be.below(0.15);
    expect(b.ai_share).to.be.above(h.ai_share);
    expect(b.overall_score).to.equal(b.ai_share);
    expect(b.detections.some((d) => /^(velocity|size)$/.test(d.strategy))).to.equal(true);
  });

  it('calls a history whose commits credit an assistant likely_ai_generated, counting them per assistant', async () => {
    const run = await analyze([attributed, '--json']);
    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.attributed_commits).to.equal(6);
    expect(report.assistants).to.deep.equal({ 'Claude Code': 6 });
    expect(report.ai_share).to.be.at.least(0.6);
    expect(report.assessment).to.equal('likely_ai_generated');
  });

  it('scores the burst history likely_ai_generated with the heuristic scoring (the model disabled)', async () => {
    const b = JSON.parse((await analyze([burst, '--json', '--config', heuristic])).stdout) as JsonReport;
    expect(b.scoring).to.equal('heuristic');
    expect(b.overall_score).to.be.at.least(0.7);
    expect(b.assessment).to.equal('likely_ai_generated');
    expect(b.suspicions[0]!.reasons.join(' ')).to.match(/exceeds (max_additions_per_min|suspicious_additions)/);
  });

  it('carries the tool version, the time and the effective configuration in the JSON report', async () => {
    const before = Date.now();
    const report = JSON.parse((await analyze([human, '--json'])).stdout) as JsonReport;
    expect(report.report).to.include({ tool: 'cadence' });
    expect(report.report!.version).to.match(/^\d+\.\d+\.\d+/);
    expect(Date.parse(report.report!.generated_at)).to.be.within(before - 1000, Date.now() + 1000);
    expect(report.report!.configuration).to.have.nested.property('thresholds.suspicious_additions', 500);
    expect(report.report!.configuration).to.have.nested.property('assessment.suspicious', 0.15);
    expect(JSON.stringify(report.report!.configuration)).to.not.match(/secret|token/);
  });

  it('exits 3 with --fail-on when the verdict reaches the level, 0 below it, and refuses an unknown level', async () => {
    const reached = await analyze([attributed, '--fail-on', 'suspicious']);
    expect(reached.code).to.equal(3);
    // Four human commits of 2019 predate assistants: too few for a false-alarm floor, which the line after the verdict says.
    expect(reached.stdout).to.match(
      /^Verdict: likely_ai_generated: \d+ of \d+ scored commits flagged, assistant share \d+%( \(\d+ read; \d+ not scored: merges, automation and commits without changed lines\))?\nFalse-alarm floor: none: fewer than 20 commits from before assistants existed \(before 2021-06-29\) to measure it on\.\nRepository: attributed/,
    );
    expect(reached.stderr.trim()).to.equal('cadence: verdict likely_ai_generated reaches --fail-on suspicious');
    expect((await analyze([attributed, '--fail-on', 'likely_ai_generated', '--json'])).code).to.equal(3);
    expect((await analyze([human, '--fail-on', 'suspicious'])).code).to.equal(0);
    const unknown = await analyze([human, '--fail-on', 'clean']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('suspicious or likely_ai_generated');
  });

  it('prints a readable text report to stdout that says what the score means, with no progress in piped output', async () => {
    const run = await analyze([attributed]);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/^Verdict: likely_ai_generated: .*\nFalse-alarm floor: .*\nRepository: attributed/);
    expect(run.stdout).to.contain('Flagged commits (evidence');
    // The few findings that matter; --verbose has the authors, the strategies and every finding.
    expect(run.stdout).to.not.contain('Strategies:');
    expect(run.stdout).to.not.contain('Authors (');
    expect(run.stdout).to.contain('cadence analyze --verbose');
    const flagged = (text: string): number => text.match(/^ {2}[0-9a-f]{7,} /gm)?.length ?? 0;
    expect(flagged(run.stdout)).to.equal(5);
    const verbose = await analyze([attributed, '--verbose']);
    expect(verbose.stdout).to.contain('Strategies:').and.contain('Authors (commits, attributed, flagged, share):');
    expect(flagged(verbose.stdout)).to.be.greaterThan(5);
    expect(run.stdout).to.contain('Bands: clean below 0.15, suspicious from 0.15, likely_ai_generated from 0.50');
    expect(run.stdout).to.contain('Attributed commits: 6 (Claude Code 6)');
    expect(run.stdout).to.contain('Thresholds in force: suspicious_additions 500');
    expect(run.stdout).to.match(/explicit +attributed to Claude Code/);
    expect(run.stderr).to.not.contain('\r');
  });

  it('writes JSON, YAML, text and HTML reports chosen by the -o extension', async () => {
    for (const name of ['r.json', 'r.yaml', 'r.yml', 'r.txt', 'r.html']) {
      const run = await analyze([burst, '-o', name]);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.equal('');
    }
    const json = JSON.parse(await readFile(path.join(work.path, 'r.json'), 'utf8')) as JsonReport;
    const yaml = parseYaml(await readFile(path.join(work.path, 'r.yaml'), 'utf8')) as JsonReport;
    expect(yaml.overall_score).to.equal(json.overall_score);
    expect(await readFile(path.join(work.path, 'r.txt'), 'utf8')).to.contain(`Assessment: ${json.assessment}`);
    const html = await readFile(path.join(work.path, 'r.html'), 'utf8');
    expect(html).to.match(/^<!doctype html>/);
    expect(html).to.contain('<svg');
    // Self-contained: its one inline script (allowed by hash), nothing loaded, no link out of a local repository.
    expect(html.match(/<script/g)).to.have.length(1);
    expect(html).to.not.match(/src=|href="http/);
  });

  it('writes one report per -o in one run (HTML and JSON), and refuses two -o of one format', async () => {
    const both = await analyze([burst, '-o', 'both.html', '-o', 'both.json']);
    expect(both.code, both.stderr).to.equal(0);
    expect(await readFile(path.join(work.path, 'both.html'), 'utf8')).to.match(/^<!doctype html>/);
    const json = JSON.parse(await readFile(path.join(work.path, 'both.json'), 'utf8')) as JsonReport;
    expect(json.overall_score).to.be.a('number');
    const twice = await analyze([burst, '-o', 'first.yaml', '-o', 'second.yml']);
    expect(twice.code).to.equal(2);
    expect(twice.stderr.trim().split('\n')).to.have.length(1);
    expect(twice.stderr).to.contain('-o first.yaml and -o second.yml are both yaml reports: give one -o per format');
  });

  it('follows --suspicious-additions over the file and the environment (file < env < flag)', async () => {
    const dir = path.join(work.path, 'precedence');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, '.cadence.yaml'),
      'thresholds:\n  suspicious_additions: 100000\n  max_additions_per_min: 100000\n',
    );
    const score = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> => {
      const run = await runCadence(['analyze', burst, '--json', ...args], { cwd: dir, env });
      expect(run.code, run.stderr).to.equal(0);
      return (JSON.parse(run.stdout) as JsonReport).detections.filter((d) => d.strategy === 'size').length;
    };
    expect(await score([])).to.equal(0);
    expect(await score([], { CADENCE_THRESHOLDS_SUSPICIOUS_ADDITIONS: '500' })).to.be.above(0);
    expect(
      await score(['--suspicious-additions', '100000'], { CADENCE_THRESHOLDS_SUSPICIOUS_ADDITIONS: '500' }),
    ).to.equal(0);
  });

  it('exits 2 on an invalid configuration file, naming the key and the file', async () => {
    const dir = path.join(work.path, 'invalid');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, '.cadence.yaml'), 'thresholds:\n  suspicious_additions: -1\n');
    const run = await runCadence(['analyze', burst], { cwd: dir });
    expect(run.code).to.equal(2);
    expect(run.stderr.trim().split('\n')).to.have.length(1);
    expect(run.stderr).to.contain('thresholds.suspicious_additions').and.contain(path.join(dir, '.cadence.yaml'));
  });

  it('exits 2 on bad usage: unknown report extension, bad flag value, refused URL', async () => {
    expect((await analyze([burst, '-o', 'report.pdf'])).code).to.equal(2);
    expect((await analyze([burst, '--suspicious-additions', 'many'])).code).to.equal(2);
    const refused = await analyze(['ext::sh -c touch% /tmp/x']);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.contain('ERR_INVALID_SOURCE');
  });

  it('exits 1 when the analysis fails: missing path, unknown branch, empty repository, unreachable URL', async () => {
    // What the command named is not there: bad usage (2), each with a code naming it and what to do.
    const missing = await analyze([path.join(work.path, 'nowhere')]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr.trim().split('\n')).to.have.length(1);
    expect(missing.stderr).to.contain(
      `ERR_PATH_NOT_FOUND: No such path: ${path.join(work.path, 'nowhere')} (a local path names a folder that exists`,
    );
    const plainDir = path.join(work.path, 'plain-folder');
    await mkdir(plainDir);
    const notRepository = await analyze([plainDir]);
    expect(notRepository.code).to.equal(2);
    expect(notRepository.stderr).to.contain(
      `ERR_NOT_A_REPOSITORY: Not a git repository: ${plainDir} (git finds no repository there or above it`,
    );
    const branch = await analyze([human, '--branch', 'no-such-branch']);
    expect(branch.code).to.equal(2);
    expect(branch.stderr).to.contain('ERR_BRANCH_NOT_FOUND: Branch not found: no-such-branch (');
    const emptyDir = path.join(work.path, 'empty');
    await mkdir(emptyDir);
    await createRepository(emptyDir, []);
    const empty = await analyze([emptyDir]);
    expect(empty.code).to.equal(1);
    expect(empty.stderr).to.contain('ERR_NO_COMMITS_FOUND');
    const unreachable = await analyze(['git://127.0.0.1:1/acme/none.git']);
    expect(unreachable.code).to.equal(1);
    expect(unreachable.stderr).to.contain('ERR_GIT_CLONE_FAILED');
  });

  it('leaves excluded files out of the counts', async () => {
    const dir = path.join(work.path, 'vendored');
    await mkdir(dir);
    await createRepository(dir, [
      { message: 'init', date: Date.UTC(2019, 0, 1) / 1000, addLines: 5 },
      {
        message: 'Vendor a library',
        date: Date.UTC(2019, 0, 1) / 1000 + 120,
        files: { 'vendor/big.js': 'x\n'.repeat(5000) },
        addLines: 2,
      },
    ]);
    const run = await analyze([dir, '--json']);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.metrics.additions).to.equal(7);
    expect(report.metrics.excluded_additions).to.equal(5000);
    expect(report.detections.filter((d) => d.strategy === 'size')).to.have.length(0);
    const config = path.join(work.path, 'no-excludes.yaml');
    await writeFile(config, 'exclude_files: []\n');
    const unexcluded = JSON.parse((await analyze([dir, '--json', '--config', config])).stdout) as JsonReport;
    expect(unexcluded.metrics.additions).to.equal(5007);
    expect(unexcluded.detections.filter((d) => d.strategy === 'size')).to.have.length(1);
  });
});

describe('cadence version, config and plugins', function () {
  this.timeout(30_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-cli-cmd-');
  });
  after(() => work.remove());

  it('prints cadence v<major>.<minor>.<patch>', async () => {
    const run = await runCadence(['version'], { cwd: work.path });
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/^cadence v\d+\.\d+\.\d+\n$/);
  });

  it('prints the effective configuration with secrets masked', async () => {
    const run = await runCadence(['config'], {
      cwd: work.path,
      env: { CADENCE_WEBHOOK_SECRET: 'super-secret-value', CADENCE_GIT_DEPTH: '7' },
    });
    expect(run.code).to.equal(0);
    expect(run.stdout).to.not.contain('super-secret-value');
    expect(run.stdout).to.contain('secret: "****"');
    expect(run.stdout).to.contain('depth: 7');
  });

  it('writes a commented .cadence.yaml and refuses to overwrite it without --force', async () => {
    expect((await runCadence(['config', 'init'], { cwd: work.path })).code).to.equal(0);
    const text = await readFile(path.join(work.path, '.cadence.yaml'), 'utf8');
    expect(text).to.contain('# Cadence project configuration');
    expect((await runCadence(['config', 'init'], { cwd: work.path })).code).to.equal(2);
    expect((await runCadence(['config', 'init', '--force'], { cwd: work.path })).code).to.equal(0);
    const effective = await runCadence(['config'], { cwd: work.path });
    expect(effective.code).to.equal(0);
    // Only what a found file may set is left uncommented: reading it warns about nothing.
    expect(effective.stderr).to.not.contain('warning');
  });

  it("writes the AI plugin's section from the plugin's own options, and the commented sections make a valid chosen file", async () => {
    expect((await runCadence(['config', 'init', '--force'], { cwd: work.path })).code).to.equal(0);
    const text = await readFile(path.join(work.path, '.cadence.yaml'), 'utf8');
    // The AI plugin's schema: its defaults, its descriptions, its secret named by its variable.
    expect(text).to.match(/^# ai:\n# {3}enabled: false\n# {3}provider: openai +# openai \| anthropic$/m);
    expect(text).to.match(/^# {3}# key: set CADENCE_AI_KEY instead$/m);
    expect(text).to.match(/^# {3}max_chars_per_job: 60000 +# characters sent per job, at most$/m);
    const chosen = path.join(work.path, 'chosen.yaml');
    await writeFile(
      chosen,
      text
        .split(/^# -{20,}$/m)
        .at(-1)!
        .replace(/^# /gm, ''),
    );
    const effective = await runCadence(['config', '--config', chosen], { cwd: work.path });
    expect(effective.code, effective.stderr).to.equal(0);
    expect(effective.stdout).to.match(/^ai:\n(?: {2}.*\n)* {2}max_chars_per_job: 60000$/m);
    expect(effective.stdout).to.match(/^webhook:\n(?: {2}.*\n)* {2}port: 8000$/m);
  });

  it('lists the built-in plugins and their strategies', async () => {
    const run = await runCadence(['plugins'], { cwd: work.path });
    expect(run.code).to.equal(0);
    for (const name of ['velocity', 'timing', 'size'])
      expect(run.stdout).to.match(new RegExp(`loaded\\s+@cadence-detect/plugin-${name}`));
    expect(run.stdout.split('\n')[0]).to.match(/^STATUS\s+PACKAGE\s+VERSION\s+SOURCE\s+WHERE$/);
    const rows = run.stdout
      .split('\n')
      .filter((line) => /^\S/.test(line))
      .slice(1);
    expect(rows.length, 'one row per package, none listed twice').to.equal(
      new Set(rows.map((line) => line.split(/\s+/)[1])).size,
    );
    expect(run.stdout).to.match(/@cadence-detect\/plugin-ai-assist[^\n]*\n\s+inactive: ai\.enabled is false/);
    const enabled = await runCadence(['plugins'], { cwd: work.path, env: { CADENCE_AI_ENABLED: 'true' } });
    expect(enabled.stdout).to.not.contain('inactive');
  });

  it('exits 2 on an unknown command or option', async () => {
    expect((await runCadence(['frobnicate'], { cwd: work.path })).code).to.equal(2);
    expect((await runCadence(['analyze', '--nope', '.'], { cwd: work.path })).code).to.equal(2);
  });
});
