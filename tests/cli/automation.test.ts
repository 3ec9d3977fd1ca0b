import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  type FixtureCommit,
  type TempDir,
} from '@cadence-detect/test-support';

interface Result {
  total_commits: number;
  scored_commits: number;
  automation_commits: number;
  attributed_commits: number;
  ai_share: number;
  assistants: Record<string, number>;
  suspicions: { commit: string; evidence: string; assistants?: string[] }[];
  detections: { commit?: string; strategy: string; evidence: string; message: string; flagged?: boolean }[];
  authors: { author: string; commits: number; flagged: number; share: number; automation?: true }[];
}

const DAY = 86_400;
const START = Date.UTC(2025, 2, 3, 9) / 1000;

const DEPENDABOT = { name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' };
const RENOVATE = { name: 'renovate[bot]', email: '29139614+renovate[bot]@users.noreply.github.com' };
const ACTIONS = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };
const COPILOT = { name: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' };
const RELEASE_ROBOT = { name: 'Release Robot', email: 'release@ci.example.test' };

/** Dependabot's own message shape: conventional subject, release-notes body, YAML metadata, sign-off. */
function dependabotBump(i: number): FixtureCommit {
  const [from, to] = [`4.17.${20 + i}`, `4.17.${21 + i}`];
  return {
    author: DEPENDABOT,
    date: START + i * 7 * DAY,
    message: [
      `chore(deps): bump lodash from ${from} to ${to}`,
      '',
      `Bumps [lodash](https://github.com/lodash/lodash) from ${from} to ${to}.`,
      `- [Release notes](https://github.com/lodash/lodash/releases)`,
      `- [Commits](https://github.com/lodash/lodash/compare/${from}...${to})`,
      '',
      '---',
      'updated-dependencies:',
      '- dependency-name: lodash',
      `  dependency-version: ${to}`,
      '  dependency-type: direct:production',
      '  update-type: version-update:semver-patch',
      '...',
      '',
      'Signed-off-by: dependabot[bot] <support@github.com>',
    ].join('\n'),
    files: {
      'package.json': `{ "dependencies": { "lodash": "^${to}" } }\n`,
      'package-lock.json': `{ "lodash": "${to}", "n": ${i} }\n`,
    },
  };
}

/** Renovate's shape: a conventional subject and its table of updates. */
function renovateUpdate(i: number): FixtureCommit {
  return {
    author: RENOVATE,
    date: START + i * 7 * DAY + 3 * DAY,
    message: [
      `chore(deps): update dependency eslint to v9.${i + 1}.0`,
      '',
      'This PR contains the following updates:',
      '',
      '| Package | Change | Age | Confidence |',
      '|---|---|---|---|',
      `| [eslint](https://eslint.org) | \`9.${i}.0\` -> \`9.${i + 1}.0\` | [![age](https://developer.mend.io/api/mc/badges/age/npm/eslint)](https://docs.renovatebot.com/merge-confidence/) | |`,
    ].join('\n'),
    files: { '.eslint-version': `9.${i + 1}.0\n` },
  };
}

describe('automation is not an assistant (cadence analyze on a real repository)', function () {
  this.timeout(90_000);
  let work: TempDir;
  let repo: string;
  let hashes: string[];

  before(async () => {
    work = await makeTempDir('cadence-automation-');
    repo = path.join(work.path, 'repo');
    await mkdir(repo);
    const commits: FixtureCommit[] = [
      ...humanHistory(24),
      ...Array.from({ length: 6 }, (_, i) => dependabotBump(i)),
      ...Array.from({ length: 3 }, (_, i) => renovateUpdate(i)),
      {
        author: ACTIONS,
        date: START + 40 * DAY,
        message: 'Update CHANGELOG.md for v2.3.0\n\n[skip ci]',
        files: { 'CHANGELOG.md': '## 2.3.0\n- fixes\n' },
      },
      // Explicit attribution on a bot's commit beats automation.
      {
        author: ACTIONS,
        date: START + 41 * DAY,
        message: 'Apply review suggestions\n\nCo-authored-by: Claude <noreply@anthropic.com>',
        addLines: 40,
        file: 'src/review.ts',
      },
      // A coding agent acting as an account stays an assistant.
      {
        author: COPILOT,
        date: START + 42 * DAY,
        message: 'Add input validation to the upload form',
        addLines: 60,
        file: 'src/upload.ts',
      },
      { author: RELEASE_ROBOT, date: START + 43 * DAY, message: 'release: v2.3.0', files: { VERSION: '2.3.0\n' } },
      { author: RELEASE_ROBOT, date: START + 44 * DAY, message: 'release: v2.3.1', files: { VERSION: '2.3.1\n' } },
    ];
    hashes = (await createRepository(repo, commits)).hashes;
  });
  after(() => work.remove());

  const analyze = async (dir: string, extra: string[] = [], cwd = work.path): Promise<Result> => {
    const run = await runCadence(['analyze', dir, '--json', ...extra], { cwd });
    expect(run.code, run.stderr).to.equal(0);
    return JSON.parse(run.stdout) as Result;
  };

  it('never flags dependabot, renovate or github-actions commits, and leaves them out of ai_share', async () => {
    const result = await analyze(repo);
    const bots = new Set(hashes.slice(24, 34));
    expect(result.total_commits).to.equal(hashes.length);
    expect(result.automation_commits).to.equal(10);
    expect(result.suspicions.filter((s) => bots.has(s.commit))).to.deep.equal([]);
    for (const hash of bots) {
      const automation = result.detections.filter((d) => d.commit === hash && d.evidence === 'automation');
      expect(automation, hash).to.have.length(1);
      expect(automation[0]!.strategy).to.equal('attribution');
    }
    expect(result.detections.find((d) => d.commit === hashes[24] && d.evidence === 'automation')!.message).to.contain(
      'dependabot[bot]',
    );
    // The denominator: every commit but the automation ones and those that change no counted line.
    expect(result.scored_commits).to.be.at.most(result.total_commits - result.automation_commits);
    const dependabot = result.authors.find((a) => a.author === 'dependabot[bot]')!;
    expect(dependabot).to.include({ commits: 6, flagged: 0, share: 0, automation: true });
    expect(result.authors.find((a) => a.author === 'Ada Example')).to.not.have.property('automation');
  });

  it('says on each detection whether its commit is flagged (one story per commit)', async () => {
    const result = await analyze(repo);
    const flagged = new Set(result.suspicions.map((s) => s.commit));
    const ofCommits = result.detections.filter((d) => d.commit !== undefined);
    expect(ofCommits.length).to.be.greaterThan(10);
    for (const d of ofCommits) expect(d.flagged, `${d.strategy} ${d.commit}`).to.equal(flagged.has(d.commit!));
    expect(ofCommits.some((d) => d.flagged === false)).to.equal(true);
    expect(ofCommits.some((d) => d.flagged === true)).to.equal(true);
  });

  it('keeps explicit attribution on a bot\u2019s commit and coding agents acting as accounts', async () => {
    const result = await analyze(repo);
    const flagged = new Map(result.suspicions.map((s) => [s.commit, s]));
    expect(flagged.get(hashes[34]!)).to.include({ evidence: 'explicit' });
    expect(flagged.get(hashes[35]!)).to.include({ evidence: 'explicit' });
    expect(flagged.get(hashes[35]!)!.assistants).to.deep.equal(['GitHub Copilot']);
    expect(result.attributed_commits).to.equal(2);
    expect(result.assistants).to.deep.equal({ 'Claude Code': 1, 'GitHub Copilot': 1 });
  });

  it('exclude_authors in the project file makes an author\u2019s commits automation; the share moves by their commits alone', async () => {
    const before = await analyze(repo);
    // A project file is found from the working directory: the checkout's own, as in CI.
    const project = path.join(work.path, 'project');
    await mkdir(project);
    await writeFile(path.join(project, '.cadence.yaml'), 'exclude_authors: ["*@ci.example.test"]\n');
    {
      const after = await analyze(repo, [], project);
      expect(after.automation_commits).to.equal(before.automation_commits + 2);
      expect(after.scored_commits).to.equal(before.scored_commits - 2);
      expect(after.authors.find((a) => a.author === 'Release Robot')).to.include({ automation: true, flagged: 0 });
    }
  });

  it('takes more automation accounts from plugin_options.attribution.automation in a chosen file', async () => {
    const config = path.join(work.path, 'automation.yaml');
    await writeFile(config, 'plugin_options:\n  attribution:\n    automation: ["^release robot$"]\n');
    const result = await analyze(repo, ['--config', config]);
    expect(result.automation_commits).to.equal(12);
    expect(
      result.detections.filter((d) => d.evidence === 'automation' && d.message.includes('Release Robot')),
    ).to.have.length(2);
  });
});

describe('automation in the text report', function () {
  this.timeout(60_000);
  it('lists the automation accounts apart, with their commits, under the verdict', async () => {
    const work = await makeTempDir('cadence-automation-text-');
    try {
      const repo = path.join(work.path, 'repo');
      await mkdir(repo);
      await createRepository(repo, [...humanHistory(6), dependabotBump(0), dependabotBump(1)]);
      const run = await runCadence(['analyze', repo, '--verbose'], { cwd: work.path });
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.contain('Automation: 2 commits not judged (dependabot[bot] 2)');
      expect(run.stdout).to.match(/dependabot\[bot\]\s+2\s+0\s+0\s+automation/);
    } finally {
      await work.remove();
    }
  });
});
