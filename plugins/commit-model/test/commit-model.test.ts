import { expect } from 'chai';
import { makeCommits, runPlugin, type CommitSpec } from '@cadence-detect/plugin-testkit';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import commitModel, {
  extractFeatures,
  FEATURE_NAMES,
  isImportedTree,
  NEARBY_COMMITS,
  score,
  shippedModel,
} from '../src/index.js';

const T0 = Date.parse('2024-03-04T09:00:00Z') / 1000;
const minutes = (n: number): number => T0 + n * 60;

/** A terse human history: short subjects, no bodies, small commits hours apart. */
function humanSpecs(count: number, offset = 0): CommitSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    at: minutes(offset + i * 190 + ((i * 37) % 60)),
    subject: ['fix typo', 'bump deps', 'tweak parser', 'oops', 'handle empty input'][i % 5]!,
    additions: 3 + ((i * 7) % 20),
    deletions: (i * 3) % 6,
  }));
}

/** A commit written the way assistant-made ones often are: a summary, bullets, tests with the code. */
const ASSISTED_BODY = [
  '## Summary',
  '',
  '- Add a comprehensive `RetryPolicy` with exponential backoff',
  '- Ensure robust handling of transient `ECONNRESET` errors',
  '- Update the documentation to describe the new options',
  '',
  '## Test plan',
  '',
  '- Added unit tests for the backoff schedule',
  '- Ran the full suite locally',
].join('\n');

function assisted(at: number): CommitSpec {
  return {
    at,
    subject: 'feat: add retry policy with exponential backoff for `fetch`',
    body: ASSISTED_BODY,
    additions: 420,
    deletions: 12,
    files: [
      { path: 'src/retry.ts', additions: 260, deletions: 12, binary: false, excluded: false },
      { path: 'test/retry.test.ts', additions: 140, deletions: 0, binary: false, excluded: false },
      { path: 'docs/retry.md', additions: 20, deletions: 0, binary: false, excluded: false },
    ],
  };
}

describe('commit-model plugin', () => {
  it('ships a model whose features are the ones this version extracts, with a frozen flag cut-off', () => {
    const model = shippedModel();
    expect(model.features).to.deep.equal([...FEATURE_NAMES]);
    expect(model.flagAt).to.be.within(0.05, 0.99);
    expect(model.calibration.prior).to.be.within(0.01, 0.5);
  });

  it('gives every scored commit a probability, and an assistant-shaped commit a far higher one than the author\u2019s usual', async () => {
    const commits = makeCommits([...humanSpecs(12), assisted(minutes(12 * 190 + 5))]);
    const run = await runPlugin(commitModel, { commits });
    expect(run.result.scoring).to.equal('model');
    expect(run.result.scored_commits).to.equal(13); // every commit is measurable and changes lines
    const typical = run.result.authors[0]!.share;
    const model = shippedModel();
    const features = extractFeatures(commits);
    const last = score(model, features[features.length - 1]!).probability;
    const humans = features.slice(1, -1).map((x) => score(model, x).probability);
    const meanHuman = humans.reduce((a, b) => a + b, 0) / humans.length;
    expect(last).to.be.above(meanHuman * 3);
    expect(last).to.be.above(typical);
    expect(meanHuman).to.be.below(0.15);
  });

  it('flags from the model\u2019s cut-off only, and says which signals weighed most', async () => {
    const commits = makeCommits([...humanSpecs(12), assisted(minutes(12 * 190 + 5))]);
    const run = await runPlugin(commitModel, { commits });
    const model = shippedModel();
    const features = extractFeatures(commits);
    const flagged = commits
      .filter((_, i) => i > 0 && score(model, features[i]!).probability >= model.flagAt)
      .map((c) => c.hash);
    expect(run.detectionsOf('commit-model').map((d) => d.commit)).to.deep.equal(flagged);
    for (const detection of run.detectionsOf('commit-model')) {
      expect(detection.evidence).to.equal('inferred');
      expect(detection.message).to.match(/^model probability 0\.\d\d \(flagged from 0\.\d\d\)/);
    }
    expect(run.result.flag_at).to.equal(model.flagAt);
  });

  it('keeps a human history clean', async () => {
    const run = await runPlugin(commitModel, { commits: makeCommits(humanSpecs(40)) });
    expect(run.result.ai_share).to.be.below(0.15);
    expect(run.result.assessment).to.equal('clean');
  });

  it('gives an imported tree nothing: a library added under one folder with its own licence and manifest', async () => {
    const vendored: CommitSpec = {
      at: minutes(5000),
      subject: 'Add yaml parser',
      body: ASSISTED_BODY,
      additions: 9000,
      files: [
        { path: 'app/packages/yaml/LICENSE', additions: 21, deletions: 0, binary: false, excluded: false },
        { path: 'app/packages/yaml/package.json', additions: 30, deletions: 0, binary: false, excluded: false },
        { path: 'app/packages/yaml/src/index.js', additions: 8949, deletions: 0, binary: false, excluded: false },
      ],
    };
    const commits = makeCommits([...humanSpecs(6), vendored]).map((c, i) =>
      i === 6 ? { ...c, importedTree: { path: 'app/packages/yaml', additions: 9000 } } : c,
    );
    expect(isImportedTree(commits[6]!)).to.equal(true);
    const run = await runPlugin(commitModel, { commits });
    expect(run.detectionsOf('commit-model').filter((d) => d.commit === commits[6]!.hash)).to.deep.equal([]);
    expect(run.result.metrics['commit-model_imported_trees']).to.equal(1);
  });

  it('treats a large commit whose subject says it vendors code as an import, and a small one as ordinary', () => {
    const [, big, small] = makeCommits([
      { at: minutes(0) },
      { at: minutes(60), subject: 'Vendor upstream copy of zlib 1.3', additions: 4000 },
      { at: minutes(120), subject: 'Fix vendor detection', additions: 30 },
    ]);
    expect(isImportedTree(big!)).to.equal(true);
    expect(isImportedTree(small!)).to.equal(false);
  });

  describe('the git source finds imported trees', () => {
    let temp: TempDir;
    beforeEach(async () => {
      temp = await makeTempDir('cadence-imported-');
    });
    afterEach(() => temp.remove());

    it('marks the folder a commit adds with its own licence and manifest, and not an ordinary feature', async () => {
      const library = Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`web/packages/chart/src/part${i}.js`, 'x\n'.repeat(80)]),
      );
      const repo = await createRepository(temp.path, [
        { message: 'Start', date: T0, addLines: 10 },
        {
          message: 'Add chart library',
          date: T0 + 3600,
          files: { ...library, 'web/packages/chart/LICENSE': 'MIT\n', 'web/packages/chart/package.json': '{}\n' },
        },
        {
          message: 'Add chart page',
          date: T0 + 7200,
          files: { 'web/src/chart-page.js': 'y\n'.repeat(400), 'web/src/README.md': 'notes\n' },
        },
      ]);
      const run = await runPlugin(commitModel, { repository: repo.dir });
      expect(run.result.metrics['commit-model_imported_trees']).to.equal(1);
      expect(run.detectionsOf('commit-model').some((d) => d.commit === repo.hashes[1])).to.equal(false);
    });
  });
});

describe('commit-model features', () => {
  it('writes each feature in its slot of FEATURE_NAMES', () => {
    const [, commit] = makeCommits([
      { at: T0 },
      {
        at: T0 + 600,
        subject: 'Fixed `parser`.',
        body: '- **Parser**: faster\n- [x] tests\n\nThis commit adds \u{1F680}',
        additions: 99,
        deletions: 9,
      },
    ]);
    const x = extractFeatures([commit!, commit!])[0]!;
    const at = (name: (typeof FEATURE_NAMES)[number]): number => x[FEATURE_NAMES.indexOf(name)]!;
    expect(x.length).to.equal(FEATURE_NAMES.length);
    expect(at('log_additions')).to.equal(Math.log1p(99));
    expect(at('log_deletions')).to.equal(Math.log1p(9));
    expect(at('subject_backticks')).to.equal(1);
    expect(at('subject_period')).to.equal(1);
    expect(at('past_tense_subject')).to.equal(1);
    expect(at('labelled_bullets')).to.equal(Math.log1p(1));
    expect(at('checkbox_lines')).to.equal(Math.log1p(1));
    expect(at('self_reference')).to.equal(1);
    expect(at('emoji')).to.equal(1);
    expect(at('body_paragraphs')).to.equal(Math.log1p(2));
    expect(at('author_bullet_rate')).to.equal(1);
    expect(at('plan_line')).to.equal(0);
    expect(at('suggestion_subject')).to.equal(0);
  });

  it('reads an agent’s plan step in a squashed message, and an applied review suggestion', () => {
    const [person, squash, suggestion, batch] = makeCommits([
      { at: T0, subject: 'Add retry to the uploader', body: 'Plan the retries with backoff.' },
      {
        at: T0 + 1200,
        subject: 'Add retry to the uploader (#12)',
        body: '* Initial plan\n\n* Add retry to the uploader\n\n* Address review feedback',
      },
      { at: T0 + 1800, subject: 'Update src/upload/retry.ts' },
      { at: T0 + 2400, subject: 'Apply suggestions from code review' },
    ]);
    const xs = extractFeatures([person!, squash!, suggestion!, batch!]);
    const at = (name: (typeof FEATURE_NAMES)[number]): number[] => xs.map((x) => x[FEATURE_NAMES.indexOf(name)]!);
    expect(at('plan_line')).to.deep.equal([0, 1, 0, 0]);
    expect(at('suggestion_subject')).to.deep.equal([0, 0, 1, 1]);
  });

  it('reads how the author wrote around a commit: their nearby commits, the commit itself and other authors left out', () => {
    const bulleted = {
      subject: 'fix(parser): keep `offsets` stable',
      body: '- **Parser**: keeps offsets\n\nA second paragraph that goes on. '.padEnd(320, 'x'),
    };
    const commits = makeCommits([
      { at: T0, ...bulleted },
      { at: T0 + 60, author: 'Grace Hopper', ...bulleted },
      { at: T0 + 120, ...bulleted },
      { at: T0 + 180, subject: 'Tidy' },
      {
        at: T0 + 240,
        subject: 'Tidy again',
        files: [
          { path: 'src/a.ts', additions: 1, deletions: 0, binary: false, excluded: false },
          { path: 'test/a.test.ts', additions: 1, deletions: 0, binary: false, excluded: false },
        ],
      },
    ]);
    const xs = extractFeatures(commits);
    const at = (name: (typeof FEATURE_NAMES)[number]): number[] => xs.map((x) => x[FEATURE_NAMES.indexOf(name)]!);
    // Ada's commits are 0, 2, 3, 4: each reads the other three; Grace has no other commit.
    const nearby = [
      'nearby_bullet_rate',
      'nearby_body_rate',
      'nearby_conventional_rate',
      'nearby_scope_rate',
      'nearby_long_body_rate',
      'nearby_labelled_rate',
      'nearby_backtick_rate',
      'nearby_paragraphs_rate',
    ] as const;
    for (const name of nearby) expect(at(name), name).to.deep.equal([1 / 3, 0, 1 / 3, 2 / 3, 2 / 3]);
    expect(at('nearby_code_with_tests_rate')).to.deep.equal([1 / 3, 0, 1 / 3, 1 / 3, 0]);
  });

  it(`reads at most ${NEARBY_COMMITS} of the author's commits on either side`, () => {
    const specs = Array.from({ length: 2 * NEARBY_COMMITS + 5 }, (_, i) => ({
      at: T0 + i * 600,
      subject: i < NEARBY_COMMITS + 1 ? 'Tidy' : 'feat: more',
    }));
    const xs = extractFeatures(makeCommits(specs));
    const conventional = (i: number): number => xs[i]![FEATURE_NAMES.indexOf('nearby_conventional_rate')]!;
    // The first commit reads commits 1 to NEARBY_COMMITS, none conventional.
    expect(conventional(0)).to.equal(0);
    // The last reads the NEARBY_COMMITS before it, all conventional.
    expect(conventional(specs.length - 1)).to.equal(1);
  });
});
