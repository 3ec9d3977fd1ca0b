import { expect } from 'chai';
import { defineStrategy, definePlugin, type CommitRecord } from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import size from '@cadence-detect/plugin-size';

const T0 = Date.parse('2024-01-08T09:00:00Z') / 1000;

/** A calibrated strategy whose probabilities the test sets: the engine's part is what is under test. */
function calibrated(
  probabilities: (commit: CommitRecord, index: number) => number,
  flagAt = 0.5,
  covers: readonly string[] = [],
) {
  const strategy = defineStrategy({
    meta: {
      name: 'fixed-model',
      category: 'model',
      description: 'Probabilities set by the test.',
      appliesTo: 'repository',
      weight: 1,
      calibrated: true,
    },
    analyze(context) {
      const map = new Map(context.commits.map((c, i) => [c.hash, probabilities(c, i)]));
      const findings = context.commits
        .filter((c) => map.get(c.hash)! >= flagAt)
        .map((c) => ({ commit: c.hash, score: map.get(c.hash)!, message: 'model' }));
      return { findings, probabilities: map, flagAt, covers };
    },
  });
  return definePlugin({
    name: 'fixed-model',
    apply: (hooks) => hooks.registerStrategies.tap('fixed-model', (r) => r.add(strategy)),
  });
}

const attributing = definePlugin({
  name: 'says-so',
  apply(hooks) {
    hooks.registerStrategies.tap('says-so', (r) =>
      r.add(
        defineStrategy({
          meta: {
            name: 'says-so',
            category: 'attribution',
            description: 'Commits whose subject says "assistant".',
            appliesTo: 'repository',
            weight: 1,
          },
          analyze: (context) =>
            context.commits
              .filter((c) => c.subject.includes('assistant'))
              .map((c) => ({
                commit: c.hash,
                score: 1,
                message: 'says so',
                evidence: 'explicit' as const,
                assistant: 'Test Assistant',
              })),
        }),
      ),
    );
  },
});

/** Ten small commits a few hours apart; commit 5 is a 2,000-line one (a size finding at default thresholds). */
function history(): CommitRecord[] {
  return makeCommits(
    Array.from({ length: 10 }, (_, i) => ({
      at: T0 + i * 4 * 3600,
      subject: i === 2 || i === 3 ? `assistant change ${i}` : `change ${i}`,
      additions: i === 5 ? 2000 : 10,
    })),
  );
}

describe('repository scoring (the engine, through the plugin testkit)', () => {
  it('takes each commit\u2019s confidence from the calibrated strategy: ai_share is their mean, and overall_score follows it', async () => {
    const commits = history();
    const run = await runPlugin(
      calibrated((_, i) => (i === 7 ? 0.9 : 0.1)),
      { commits },
    );
    expect(run.result.scoring).to.equal('model');
    expect(run.result.ai_share).to.equal(0.18);
    expect(run.result.overall_score).to.equal(0.18);
    expect(run.result.assessment).to.equal('suspicious');
    expect(run.result.suspicions.map((s) => s.commit)).to.deep.equal([commits[7]!.hash]);
    expect(run.result.suspicions[0]).to.include({ evidence: 'inferred', confidence: 0.9, severity: 'high' });
    expect(run.result.flag_at).to.equal(0.5);
  });

  it('never reads an inferred probability as certainty: a model saying 1.0 gives 0.99; 1 is for explicit attribution', async () => {
    const commits = history();
    const run = await runPlugin(
      calibrated((_, i) => (i === 3 ? 1 : 0.999)),
      { commits },
    );
    expect(run.result.suspicions.map((s) => s.confidence)).to.deep.equal(new Array(10).fill(0.99));
    expect(run.result.ai_share).to.equal(0.99);
  });

  it('counts an explicitly attributed commit 1, whatever the model says, and names its assistant', async () => {
    const commits = history();
    const run = await runPlugin(
      calibrated(() => 0.05),
      { commits },
      { alongside: [attributing] },
    );
    // Two commits at 1, eight at 0.05: (2 + 0.4) / 10.
    expect(run.result.ai_share).to.equal(0.24);
    expect(run.result.attributed_commits).to.equal(2);
    expect(run.result.assistants).to.deep.equal({ 'Test Assistant': 2 });
    expect(run.result.suspicions.map((s) => [s.evidence, s.confidence, s.assistants])).to.deep.equal([
      ['explicit', 1, ['Test Assistant']],
      ['explicit', 1, ['Test Assistant']],
    ]);
  });

  it('keeps the findings of strategies the model covers as reasons only, unless the thresholds were changed from their defaults', async () => {
    const commits = history();
    const quiet = await runPlugin(
      calibrated(() => 0.05, 0.5, ['size']),
      { commits },
      { alongside: [size] },
    );
    expect(quiet.result.detections.some((d) => d.strategy === 'size' && d.commit === commits[5]!.hash)).to.equal(true);
    expect(quiet.result.suspicions).to.deep.equal([]);
    expect(quiet.result.ai_share).to.equal(0.05);
    const overridden = await runPlugin(
      calibrated(() => 0.05, 0.5, ['size']),
      { commits },
      { alongside: [size], thresholds: { suspicious_additions: 400 } },
    );
    expect(overridden.result.suspicions.map((s) => s.commit)).to.deep.equal([commits[5]!.hash]);
    expect(overridden.result.suspicions[0]!.reasons.join(' ')).to.contain('exceeds suspicious_additions 400');
  });

  it('moves a commit by the findings of a strategy the model does not cover, in log-odds from the prior', async () => {
    const commits = history();
    const run = await runPlugin(
      calibrated(() => 0.05),
      { commits },
      { alongside: [size] },
    );
    const finding = run.result.detections.find((d) => d.strategy === 'size' && d.commit === commits[5]!.hash)!;
    // K = logit(0.5) - logit(0.05) + 0.1 (the default prior); size's weight times the finding's score.
    const k = 0 - Math.log(0.05 / 0.95) + 0.1;
    const z = Math.log(0.05 / 0.95) + k * finding.confidence;
    const p = Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000;
    expect(run.result.ai_share).to.equal(Math.round(((9 * 0.05 + p) / 10) * 1000) / 1000);
    expect(run.result.suspicions.map((s) => s.commit)).to.deep.equal(p >= 0.5 ? [commits[5]!.hash] : []);
  });

  it('falls back to the heuristic combination when no calibrated strategy runs', async () => {
    const commits = history();
    const run = await runPlugin(size, { commits });
    expect(run.result.scoring).to.equal('heuristic');
    expect(run.result.flag_at).to.equal(null);
    const big = run.result.suspicions.find((s) => s.commit === commits[5]!.hash);
    expect(big?.evidence).to.equal('inferred');
    expect(run.result.ai_share).to.equal(Math.round((big!.confidence / 10) * 1000) / 1000);
  });

  it('maps ai_share to the assessment with the configured bands', async () => {
    const commits = history();
    const at = async (p: number, assessment?: { suspicious: number; likely_ai_generated: number }) =>
      (
        await runPlugin(
          calibrated(() => p),
          { commits },
          assessment ? { assessment } : {},
        )
      ).result.assessment;
    expect(await at(0.14)).to.equal('clean');
    expect(await at(0.15)).to.equal('suspicious');
    expect(await at(0.49)).to.equal('suspicious');
    expect(await at(0.5)).to.equal('likely_ai_generated');
    expect(await at(0.3, { suspicious: 0.35, likely_ai_generated: 0.6 })).to.equal('clean');
  });

  it('breaks the result down per author, most commits first', async () => {
    const commits = makeCommits([
      { at: T0, author: 'Ada', subject: 'a' },
      { at: T0 + 3600, author: 'Ada', subject: 'assistant b' },
      { at: T0 + 7200, author: 'Alan', subject: 'c' },
      { at: T0 + 9000, author: 'Ada', subject: 'd' },
    ]);
    const run = await runPlugin(
      calibrated(() => 0.2),
      { commits },
      { alongside: [attributing] },
    );
    expect(run.result.authors).to.deep.equal([
      {
        author: 'Ada',
        email: 'ada@example.com',
        commits: 3,
        attributed: 1,
        flagged: 1,
        share: 0.467,
        scored_commits: 3,
        assistants: { 'Test Assistant': 1 },
      },
      {
        author: 'Alan',
        email: 'alan@example.com',
        commits: 1,
        attributed: 0,
        flagged: 0,
        share: 0.2,
        scored_commits: 1,
        assistants: {},
      },
    ]);
  });

  it('refuses probabilities that are not a Map of probabilities, as that strategy\u2019s error', async () => {
    const broken = definePlugin({
      name: 'broken-model',
      apply: (hooks) =>
        hooks.registerStrategies.tap('broken-model', (r) =>
          r.add(
            defineStrategy({
              meta: {
                name: 'broken-model',
                category: 'model',
                description: 'Returns garbage.',
                appliesTo: 'repository',
                weight: 1,
                calibrated: true,
              },
              analyze: (context) => ({ findings: [], probabilities: new Map([[context.commits[0]!.hash, 7]]) }),
            }),
          ),
        ),
    });
    const run = await runPlugin(broken, { commits: history() });
    expect(run.strategy('broken-model').error).to.match(/not a probability/);
    expect(run.result.scoring).to.equal('heuristic');
  });
});
