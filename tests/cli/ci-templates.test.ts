import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { makeTempDir, runCadence } from '@cadence-detect/test-support';

const root = new URL('../../', import.meta.url);
const read = async (file: string): Promise<string> => readFile(new URL(file, root), 'utf8');

interface ActionStep {
  uses?: string;
  with?: Record<string, unknown>;
  id?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}

/** The GitHub Action and the GitLab template as committed: what a user's pipeline runs. */
describe('the GitHub Action and the GitLab CI template', () => {
  it('action.yml: a composite action on Node 24 whose inputs reach `cadence ci github` as underscore names, never in the script text', async () => {
    const action = parse(await read('action.yml')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, { value: string }>;
      runs: { using: string; steps: ActionStep[] };
    };
    expect(action.runs.using).to.equal('composite');
    expect(Object.keys(action.inputs).sort()).to.deep.equal(['base', 'config', 'fail-on', 'path', 'sarif']);
    expect(Object.keys(action.outputs).sort()).to.deep.equal(['ai-share', 'assessment', 'flagged']);
    for (const output of Object.values(action.outputs))
      expect(output.value).to.match(/^\$\{\{ steps\.cadence\.outputs\.[a-z-]+ \}\}$/);
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).to.equal(24);
    // Pinned by full commit (a tag can be moved), the tag named beside it.
    expect(setup!.uses).to.match(/^actions\/setup-node@[0-9a-f]{40}$/);
    expect(await read('action.yml')).to.match(
      new RegExp(`uses: ${setup!.uses!.replace(/[/.]/g, '\\$&')} # v\\d+\\.\\d+\\.\\d+\\n`),
    );
    const step = action.runs.steps.find((s) => s.id === 'cadence')!;
    // A hyphen in an environment name (INPUT_FAIL-ON) is dropped by dash, the /bin/sh npx runs commands through.
    for (const name of Object.keys(step.env ?? {})) expect(name).to.match(/^[A-Z][A-Z0-9_]*$/);
    expect(Object.keys(step.env!).sort()).to.deep.equal([
      'INPUT_BASE',
      'INPUT_CONFIG',
      'INPUT_FAIL_ON',
      'INPUT_PATH',
      'INPUT_SARIF',
    ]);
    for (const [name, value] of Object.entries(step.env!))
      expect(value, name).to.equal(`\${{ inputs.${name.slice(6).toLowerCase().replace(/_/g, '-')} }}`);
    expect(step.run).to.not.contain('${{');
    // Installed into a folder of the runner's and run by absolute path: never npx in the checkout (tests/security/ci-step-isolation.test.ts runs it).
    expect(step.run).to.not.match(/\bnpx\b/);
    expect((step as { 'working-directory'?: string })['working-directory']).to.equal('${{ runner.temp }}');
    const bin = (JSON.parse(await read('host/package.json')) as { bin: { cadence: string } }).bin.cadence.replace(
      /^\.\//,
      '',
    );
    expect(step.run).to.contain(`"$node_bin" "$cli_dir/node_modules/@cadence-detect/cli/${bin}" ci github`);
  });

  it('the GitLab template runs `cadence ci gitlab` on merge requests at the CLI\u2019s own version, with the whole history and the Code Quality report', async () => {
    const template = parse(await read('templates/cadence.gitlab-ci.yml')) as {
      cadence: {
        variables: Record<string, string>;
        rules: { if: string }[];
        script: string[];
        artifacts: { reports: { codequality: string } };
      };
    };
    const version = (JSON.parse(await read('host/package.json')) as { version: string }).version;
    const job = template.cadence;
    expect(job.variables.CADENCE_VERSION, 'bump the template with the CLI').to.equal(version);
    expect(job.variables.GIT_DEPTH).to.equal('0');
    expect(job.rules.map((r) => r.if)).to.deep.equal(['$CI_PIPELINE_SOURCE == "merge_request_event"']);
    const script = job.script.join('\n');
    expect(script)
      .to.contain('"@cadence-detect/cli@${CADENCE_VERSION}"')
      .and.contain('ci gitlab -o gl-code-quality.json');
    expect(script).to.not.match(/\bnpx\b/);
    expect(job.artifacts.reports.codequality).to.equal('gl-code-quality.json');
  });

  it('the Bitbucket template runs `cadence ci bitbucket` on pull requests at the CLI\u2019s own version, with the whole history and the Code Insights file', async () => {
    const template = parse(await read('templates/bitbucket-pipelines.yml')) as {
      image: string;
      clone: { depth: string };
      pipelines: { 'pull-requests': Record<string, { step: { script: string[]; artifacts: string[] } }[]> };
    };
    const version = (JSON.parse(await read('host/package.json')) as { version: string }).version;
    expect(template.clone.depth).to.equal('full');
    expect(template.image).to.equal('node:24');
    const step = template.pipelines['pull-requests']['**']![0]!.step;
    const script = step.script.join('\n');
    expect(step.script[0], 'bump the template with the CLI').to.equal(`CADENCE_VERSION="${version}"`);
    expect(script)
      .to.contain('"@cadence-detect/cli@${CADENCE_VERSION}"')
      .and.contain('ci bitbucket -o cadence-insights.json')
      .and.contain('--ignore-scripts');
    expect(script).to.not.match(/\bnpx\b|\bpipe:/);
    expect(step.artifacts).to.deep.equal(['cadence-insights.json']);
  });

  it('cadence config init --ci bitbucket writes the template\u2019s pipeline, and prints it for an existing bitbucket-pipelines.yml', async () => {
    const dir = await makeTempDir('cadence-init-bitbucket-');
    try {
      const template = parse(await read('templates/bitbucket-pipelines.yml')) as Record<string, unknown>;
      const written = await runCadence(['config', 'init', '--ci', 'bitbucket'], { cwd: dir.path });
      expect(written.code, written.stderr).to.equal(0);
      const file = path.join(dir.path, 'bitbucket-pipelines.yml');
      // What init writes is the shipped template, down to the script's last word.
      expect(parse(await readFile(file, 'utf8'))).to.deep.equal(template);
      await writeFile(file, 'image: node:22\npipelines:\n  default:\n    - step:\n        script: [make]\n');
      const printed = await runCadence(['config', 'init', '--ci', 'bitbucket', '--force'], { cwd: dir.path });
      expect(printed.code, printed.stderr).to.equal(0);
      expect(await readFile(file, 'utf8')).to.contain('script: [make]');
      expect(printed.stdout).to.contain('exists: merge these lines into it');
      const lines = parse(printed.stdout.slice(printed.stdout.indexOf('\nclone:') + 1)) as Record<string, unknown>;
      expect(lines.pipelines).to.deep.equal(template.pipelines);
      expect(lines.clone).to.deep.equal({ depth: 'full' });
      const unknown = await runCadence(['config', 'init', '--ci', 'jenkins'], { cwd: dir.path });
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.contain('no installed plugin brings a CI runner for "jenkins"');
      expect(unknown.stderr).to.contain('the installed ones are bitbucket, gitea, github, gitlab');
      const notAName = await runCadence(['config', 'init', '--ci', '../x'], { cwd: dir.path });
      expect(notAName.code).to.equal(2);
      expect(notAName.stderr).to.contain('must be a forge name');
    } finally {
      await dir.remove();
    }
  });

  it('cadence config init --ci writes the workflow (github) or the include (gitlab), and prints the include for an existing pipeline', async () => {
    const dir = await makeTempDir('cadence-init-ci-');
    try {
      const github = await runCadence(['config', 'init', '--ci', 'github'], { cwd: dir.path });
      expect(github.code, github.stderr).to.equal(0);
      const workflow = parse(await readFile(path.join(dir.path, '.github', 'workflows', 'cadence.yml'), 'utf8')) as {
        jobs: { cadence: { steps: { uses?: string; with?: Record<string, unknown> }[] } };
      };
      const steps = workflow.jobs.cadence.steps;
      // Third-party actions pinned by full commit; the checkout keeps no token for later steps.
      expect(steps[0]).to.deep.include({
        uses: 'actions/checkout@11d5960a326750d5838078e36cf38b85af677262',
        with: { 'fetch-depth': 0, 'persist-credentials': false },
      });
      expect(steps.map((s) => s.uses)).to.include(
        'github/codeql-action/upload-sarif@dd903d2e4f5405488e5ef1422510ee31c8b32357',
      );
      for (const uses of steps
        .map((s) => s.uses)
        .filter((u): u is string => Boolean(u) && !u!.startsWith('cadence-detect/')))
        expect(uses).to.match(/@[0-9a-f]{40}$/);
      expect((await runCadence(['config', 'init', '--ci', 'github'], { cwd: dir.path })).code).to.equal(2);
      await writeFile(path.join(dir.path, '.gitlab-ci.yml'), 'stages: [test]\n');
      const gitlab = await runCadence(['config', 'init', '--ci', 'gitlab', '--force'], { cwd: dir.path });
      expect(gitlab.code, gitlab.stderr).to.equal(0);
      expect(await readFile(path.join(dir.path, '.gitlab-ci.yml'), 'utf8')).to.equal('stages: [test]\n');
      expect(gitlab.stdout).to.contain('add these lines').and.contain('templates/cadence.gitlab-ci.yml');
      expect(gitlab.stdout).to.not.contain('stage:');
      // A pipeline whose own stages lack test: the printed job runs in one of them, and the lines still parse.
      await writeFile(path.join(dir.path, '.gitlab-ci.yml'), 'stages: [build, verify, deploy]\n');
      const staged = await runCadence(['config', 'init', '--ci', 'gitlab', '--force'], { cwd: dir.path });
      expect(staged.code, staged.stderr).to.equal(0);
      expect(staged.stdout).to.contain(
        'declares stages build, verify, deploy without test: the cadence job below runs in verify (or add test to stages:)',
      );
      const printed = staged.stdout.slice(staged.stdout.indexOf('# Cadence on merge requests'));
      expect((parse(printed) as { cadence: { stage: string } }).cadence.stage).to.equal('verify');
      await writeFile(path.join(dir.path, '.gitlab-ci.yml'), 'stages: [build, package, deploy]\n');
      const before = await runCadence(['config', 'init', '--ci', 'gitlab', '--force'], { cwd: dir.path });
      expect(
        (
          parse(before.stdout.slice(before.stdout.indexOf('# Cadence on merge requests'))) as {
            cadence: { stage: string };
          }
        ).cadence.stage,
      ).to.equal('package');
      expect((await runCadence(['config', 'init', '--ci', 'jenkins'], { cwd: dir.path })).code).to.equal(2);
    } finally {
      await dir.remove();
    }
  });

  it('cadence config init --ci adds a CI set-up beside an existing .cadence.yaml without touching it, --force or not', async () => {
    const dir = await makeTempDir('cadence-init-keep-');
    try {
      const config = path.join(dir.path, '.cadence.yaml');
      expect((await runCadence(['config', 'init', '--ci', 'github'], { cwd: dir.path })).code).to.equal(0);
      const edited = `${await readFile(config, 'utf8')}\n# the team's own edit\nthresholds:\n  suspicious: 0.4\n`;
      await writeFile(config, edited);
      const gitlab = await runCadence(['config', 'init', '--ci', 'gitlab'], { cwd: dir.path });
      expect(gitlab.code, gitlab.stderr).to.equal(0);
      expect(gitlab.stdout).to.contain(`kept ${config} as it is`);
      expect(await readFile(path.join(dir.path, '.gitlab-ci.yml'), 'utf8')).to.contain('cadence');
      const bitbucket = await runCadence(['config', 'init', '--ci', 'bitbucket', '--force'], { cwd: dir.path });
      expect(bitbucket.code, bitbucket.stderr).to.equal(0);
      expect(await readFile(config, 'utf8')).to.equal(edited);
      // Asked for the configuration itself, it still refuses to overwrite it without --force.
      const again = await runCadence(['config', 'init'], { cwd: dir.path });
      expect(again.code).to.equal(2);
      expect(again.stderr).to.contain(`${config} exists; use --force to overwrite it`);
    } finally {
      await dir.remove();
    }
  });

  it('cadence config init never writes through a committed link (.cadence.yaml, dangling or not; a linked .github/workflows)', async () => {
    const dir = await makeTempDir('cadence-init-links-');
    try {
      const repo = path.join(dir.path, 'repo');
      const outside = path.join(dir.path, 'outside');
      await mkdir(repo);
      await mkdir(outside);
      await writeFile(path.join(outside, 'precious.yaml'), 'mine\n');
      await symlink(path.join(outside, 'precious.yaml'), path.join(repo, '.cadence.yaml'));
      const forced = await runCadence(['config', 'init', '--force'], { cwd: repo });
      expect(forced.code).to.equal(2);
      expect(forced.stderr).to.contain(`${path.join(repo, '.cadence.yaml')} is a link`);
      expect(await readFile(path.join(outside, 'precious.yaml'), 'utf8')).to.equal('mine\n');

      const dangling = path.join(dir.path, 'dangling');
      await mkdir(dangling);
      await symlink(path.join(outside, 'created.yaml'), path.join(dangling, '.cadence.yaml'));
      const created = await runCadence(['config', 'init'], { cwd: dangling });
      expect(created.code).to.equal(2);
      expect(existsSync(path.join(outside, 'created.yaml'))).to.equal(false);

      const workflows = path.join(dir.path, 'workflows');
      await mkdir(path.join(workflows, '.github'), { recursive: true });
      await symlink(outside, path.join(workflows, '.github', 'workflows'));
      const linked = await runCadence(['config', 'init', '--ci', 'github'], { cwd: workflows });
      expect(linked.code).to.equal(2);
      expect(linked.stderr).to.contain(`${path.join(workflows, '.github', 'workflows')} is a link`);
      expect(existsSync(path.join(outside, 'cadence.yml'))).to.equal(false);
      expect(existsSync(path.join(workflows, '.cadence.yaml'))).to.equal(false);
    } finally {
      await dir.remove();
    }
  });
});
