import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { makeTempDir, runCadence } from '@cadence-detect/test-support';

/** `cadence ci <forge>` finds the forge plugin's runner by name; its options are the runner's own and the common ones. */
describe('cadence ci <forge>: the forge plugins\u2019 runners', () => {
  it('lists the installed forges\u2019 runners with --help, and needs a forge', async () => {
    const help = await runCadence(['ci', '--help'], { cwd: tmpdir() });
    expect(help.code, help.stderr).to.equal(0);
    for (const forge of ['bitbucket', 'gitea', 'github', 'gitlab'])
      expect(help.stdout).to.match(new RegExp(`^  ${forge} +in a `, 'm'));
    const none = await runCadence(['ci'], { cwd: tmpdir() });
    expect(none.code).to.equal(2);
    expect(none.stderr).to.contain('cadence ci needs a forge: bitbucket, gitea, github, gitlab');
  });

  it('says options go after the forge, and reads cadence ci help <forge> as its --help', async () => {
    const first = await runCadence(['ci', '--fail-on', 'never', 'github'], { cwd: tmpdir() });
    expect(first.code).to.equal(2);
    expect(first.stderr).to.contain('options go after the forge: cadence ci <forge> [options]');
    const help = await runCadence(['ci', 'help', 'gitlab'], { cwd: tmpdir() });
    expect(help.code, help.stderr).to.equal(0);
    expect(help.stdout).to.contain('Usage: cadence ci gitlab').and.contain('-o, --output <file>');
  });

  it('refuses a forge no installed plugin runs, naming the ones there are', async () => {
    const run = await runCadence(['ci', 'jenkins', '--base', 'HEAD'], { cwd: tmpdir() });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain(
      'no installed plugin brings a CI runner for "jenkins": the installed ones are bitbucket, gitea, github, gitlab',
    );
  });

  it('gives each runner the common options and its own; an option it does not know is bad usage', async () => {
    const gitlab = await runCadence(['ci', 'gitlab', '--help'], { cwd: tmpdir() });
    expect(gitlab.code, gitlab.stderr).to.equal(0);
    expect(gitlab.stdout)
      .to.contain('Usage: cadence ci gitlab')
      .and.contain('--fail-on <level>')
      .and.contain('-o, --output <file>');
    expect(gitlab.stdout).to.contain('gl-code-quality.json');
    const bitbucket = await runCadence(['ci', 'bitbucket', '--help'], { cwd: tmpdir() });
    expect(bitbucket.stdout).to.contain('--no-insights').and.contain('cadence-insights.json');
    const github = await runCadence(['ci', 'github', '--help'], { cwd: tmpdir() });
    expect(github.stdout).to.contain('--sarif <file>').and.not.contain('--output');
    const unknown = await runCadence(['ci', 'github', '--output', 'x.json'], { cwd: tmpdir() });
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain("unknown option '--output'");
  });

  it('cadence config init --ci gitea writes a workflow that installs the CLI and the Gitea plugin at one version and runs cadence ci gitea', async () => {
    const dir = await makeTempDir('cadence-init-gitea-');
    try {
      const written = await runCadence(['config', 'init', '--ci', 'gitea'], { cwd: dir.path });
      expect(written.code, written.stderr).to.equal(0);
      const workflow = parse(await readFile(path.join(dir.path, '.gitea', 'workflows', 'cadence.yml'), 'utf8')) as {
        jobs: {
          cadence: {
            steps: { uses?: string; with?: Record<string, unknown>; env?: Record<string, string>; run?: string }[];
          };
        };
      };
      const steps = workflow.jobs.cadence.steps;
      expect(steps[0]!.with).to.deep.equal({ 'fetch-depth': 0, 'persist-credentials': false });
      for (const uses of steps.flatMap((s) => (s.uses ? [s.uses] : []))) expect(uses).to.match(/@[0-9a-f]{40}$/);
      const cadence = steps.find((s) => s.run)!;
      const version = (
        JSON.parse(await readFile(new URL('../../host/package.json', import.meta.url), 'utf8')) as { version: string }
      ).version;
      expect(cadence.env?.CADENCE_VERSION).to.equal(version);
      expect(cadence.run).to.contain(
        '"@cadence-detect/cli@${CADENCE_VERSION}" "@cadence-detect/plugin-gitea@${CADENCE_VERSION}"',
      );
      expect(cadence.run).to.match(/cadence\.js" ci gitea\n/);
      // Nothing of the checkout chooses what runs: the CLI is run by absolute path from a fresh folder.
      expect(cadence.run).to.contain('cli_dir=$(mktemp -d)').and.not.contain('npx');
    } finally {
      await dir.remove();
    }
  });
});
