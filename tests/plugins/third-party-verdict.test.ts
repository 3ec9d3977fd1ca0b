import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, humanHistory, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

/**
 * A third party's repository strategy, as a plugin package: it scores the commits whose subject
 * carries a marker at 1.0 (as a team's own rule might), with the weight the test gives it.
 */
function pluginSource(weight: number): string {
  return `
const strategy = {
  meta: { name: 'marker-rule', category: 'team-rule', description: 'Commits whose subject carries the marker.', appliesTo: 'repository', weight: ${weight} },
  analyze(context) {
    return context.commits.filter((c) => c.subject.includes('[marked]')).map((c) => ({ commit: c.hash, score: 1, message: 'carries the marker' }));
  },
};
export default {
  name: 'marker-rule',
  apiVersion: '^2.0.0',
  apply(hooks) {
    hooks.registerStrategies.tap('marker-rule', (registrar) => registrar.add(strategy));
  },
};
`;
}

interface Result {
  assessment: string;
  ai_share: number;
  scored_commits: number;
  flag_at: number;
  suspicions: { commit: string; confidence: number; reasons: string[] }[];
}

describe('every strategy counts: a third-party strategy moves the verdict', function () {
  this.timeout(90_000);
  let dir: TempDir;
  let repo: string;
  let marked: string[];

  before(async () => {
    dir = await makeTempDir('cadence-third-party-');
    for (const [name, weight] of [
      ['marker-rule', 1],
      ['marker-rule-light', 0.25],
    ] as const) {
      const plugin = path.join(dir.path, name);
      await mkdir(plugin);
      await writeFile(
        path.join(plugin, 'package.json'),
        JSON.stringify({ name: 'marker-rule', version: '1.0.0', type: 'module', main: 'index.js' }),
      );
      await writeFile(path.join(plugin, 'index.js'), pluginSource(weight));
    }
    repo = path.join(dir.path, 'repo');
    await mkdir(repo);
    const history = humanHistory(40).map((c, i) => (i % 10 === 5 ? { ...c, message: `${c.message} [marked]` } : c));
    const { hashes } = await createRepository(repo, history);
    marked = hashes.filter((_, i) => i % 10 === 5);
  });
  after(async () => {
    await dir?.remove();
  });

  async function analyze(plugin: string | null): Promise<Result> {
    const file = path.join(dir.path, `config-${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(file, plugin ? `plugins: [${JSON.stringify(path.join(dir.path, plugin))}]\n` : '{}\n');
    const run = await runCadence(['analyze', '.', '--json', '--config', file], { cwd: repo });
    expect(run.code, run.stderr).to.equal(0);
    return JSON.parse(run.stdout) as Result;
  }

  it('flags each commit a weight-1 strategy scores 1 on its own, and raises ai_share', async () => {
    const without = await analyze(null);
    const withRule = await analyze('marker-rule');
    expect(without.assessment).to.equal('clean');
    expect(without.suspicions.filter((s) => marked.includes(s.commit))).to.deep.equal([]);
    const flagged = withRule.suspicions.filter((s) => marked.includes(s.commit));
    expect(flagged.map((s) => s.commit).sort()).to.deep.equal([...marked].sort());
    for (const s of flagged) {
      expect(s.confidence).to.be.at.least(withRule.flag_at);
      expect(s.reasons.some((r) => r.startsWith('marker-rule (inferred): carries the marker'))).to.equal(true);
    }
    // Four of the scored commits moved from the model's probability to just past flag_at.
    expect(withRule.ai_share).to.be.above(without.ai_share + (4 * (withRule.flag_at - 0.1)) / withRule.scored_commits);
  });

  it('moves a commit by its weight: at weight 0.25 one finding does not flag on its own, but still moves the share', async () => {
    const without = await analyze(null);
    const light = await analyze('marker-rule-light');
    expect(light.suspicions.filter((s) => marked.includes(s.commit))).to.deep.equal([]);
    expect(light.ai_share).to.be.above(without.ai_share);
  });
});
