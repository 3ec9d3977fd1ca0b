import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvModule from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import {
  burstHistory,
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  type FixtureCommit,
  type TempDir,
} from '@cadence-detect/test-support';

/** The published SARIF 2.1.0 schema, as an npm package ships it (never a copy in this repository). */
function sarifValidator() {
  const require = createRequire(import.meta.url);
  const schemaFile = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(require('node:fs').readFileSync(schemaFile, 'utf8')) as object;
  // Both packages are CommonJS with a default export: under ESM it sits on `.default`.
  type AjvInstance = { compile(schema: object): ValidateFunction };
  const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (
    options: object,
  ) => AjvInstance;
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
    ajv: AjvInstance,
  ) => void;
  // The schema's language-tag pattern is not valid in Unicode mode: compile its patterns as plain ones.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number } };
  }[];
  partialFingerprints: Record<string, string>;
  properties: { commit: string; evidence: string; reasons: string[]; assistants?: string[] };
}

interface SarifLog {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        informationUri: string;
        rules: {
          id: string;
          shortDescription: { text: string };
          fullDescription: { text: string };
          help: { text: string; markdown: string };
        }[];
      };
    };
    automationDetails: { id: string };
    results: SarifResult[];
    properties: {
      assessment: string;
      flagged_commits: number;
      fail_on?: string;
      verdict_reaches_fail_on?: boolean;
      locations_checked_at_head: boolean;
      flagged_without_location: { commits: number; listed: string[] };
    };
  }[];
}

const ATTRIBUTED = 'cadence/attributed-commit';
const INFERRED = 'cadence/inferred-commit';
const CLAUDE = 'Co-Authored-By: Claude <noreply@anthropic.com>';
const DEPENDABOT = { name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' };
const WEB_FLOW = { name: 'GitHub', email: 'noreply@github.com' };

/** A dependabot bump as GitHub merges it: a few lines of the manifest, hundreds of the lock file. */
function dependabotBump(
  index: number,
  date: number,
  author: FixtureCommit['author'] = DEPENDABOT,
  subject = 'Bump the npm group with 3 updates',
): FixtureCommit {
  const version = `4.17.${20 + index}`;
  const lock = Array.from(
    { length: 300 },
    (_, l) => `    "node_modules/dep-${l}": { "version": "${version}", "integrity": "sha512-${index}-${l}" },`,
  ).join('\n');
  const manifest = Array.from({ length: 3 }, (_, l) => `    "dep-${l}": "^${version}",`).join('\n');
  return {
    message: `${subject}\n\nBumps the npm group with 3 updates.\n\n---\nupdated-dependencies:\n- dependency-name: dep-0\n  dependency-type: direct:production\n...\n\nSigned-off-by: dependabot[bot] <support@github.com>`,
    date,
    author,
    committer: WEB_FLOW,
    files: {
      'package.json': `{ "dependencies": {\n${manifest}\n  }\n}\n`,
      'package-lock.json': `{\n  "packages": {\n${lock}\n  }\n}\n`,
    },
  };
}

/** A human history with dependabot bumps after every `every`-th commit, `perVisit` of them `gap` seconds apart. */
function withBumps(
  every: number,
  perVisit: number,
  gap: number,
  author: FixtureCommit['author'] = DEPENDABOT,
  subject?: string,
): FixtureCommit[] {
  const history: FixtureCommit[] = [];
  let bump = 0;
  humanHistory(16, Date.UTC(2024, 2, 4, 9) / 1000).forEach((commit, i) => {
    history.push(commit);
    if (i % every !== 1) return;
    for (let j = 0; j < perVisit; j++)
      history.push(dependabotBump(bump++, Number(commit.date) + 1800 + j * gap, author, subject));
  });
  return history;
}

describe('cadence analyze -o report.sarif (SARIF 2.1.0 for GitHub code scanning)', function () {
  this.timeout(120_000);
  let work: TempDir;
  const validate = sarifValidator();

  before(async () => {
    work = await makeTempDir('cadence-sarif-');
  });
  after(() => work.remove());

  async function repository(
    name: string,
    commits: readonly FixtureCommit[],
  ): Promise<{ dir: string; hashes: string[] }> {
    const dir = path.join(work.path, name);
    await mkdir(dir);
    const repo = await createRepository(dir, commits);
    return { dir, hashes: repo.hashes };
  }

  async function sarifOf(
    dir: string,
    report: string,
    extra: readonly string[] = [],
    expectedCode = 0,
  ): Promise<SarifLog> {
    const run = await runCadence(['analyze', dir, '-o', report, ...extra], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(expectedCode);
    const log = JSON.parse(await readFile(path.join(work.path, report), 'utf8')) as SarifLog;
    const valid = validate(log);
    expect(valid, JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
    checkCodeScanningShape(log, dir);
    return log;
  }

  /** What GitHub requires of every run and result, and what Cadence promises of its locations. */
  function checkCodeScanningShape(log: SarifLog, dir: string): void {
    expect(log.version).to.equal('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver.name).to.equal('Cadence');
    expect(run.tool.driver.informationUri).to.equal('https://github.com/cadence-detect/cadence');
    expect(run.automationDetails.id).to.equal('cadence/repository/');
    expect(run.tool.driver.rules.map((r) => r.id)).to.deep.equal([ATTRIBUTED, INFERRED]);
    for (const rule of run.tool.driver.rules) {
      expect(rule.shortDescription.text, rule.id).to.have.length.above(10);
      expect(rule.fullDescription.text, rule.id).to.have.length.above(10);
      expect(rule.help.text, rule.id).to.have.length.above(40);
      expect(rule.help.markdown, rule.id).to.have.length.above(40);
    }
    expect(run.properties.locations_checked_at_head).to.equal(true);
    const commits = run.results.map((r) => r.properties.commit);
    expect(new Set(commits).size, 'one result per flagged commit').to.equal(commits.length);
    expect(run.results.length + run.properties.flagged_without_location.commits).to.equal(
      run.properties.flagged_commits,
    );
    for (const result of run.results) {
      expect([ATTRIBUTED, INFERRED]).to.include(result.ruleId);
      expect(result.locations).to.have.length(1);
      const location = result.locations[0]!.physicalLocation;
      expect(location.region.startLine).to.equal(1);
      expect(
        existsSync(path.join(dir, decodeURIComponent(location.artifactLocation.uri))),
        location.artifactLocation.uri,
      ).to.equal(true);
      expect(result.partialFingerprints['cadence/commit/v1']).to.equal(`${result.properties.commit}:${result.ruleId}`);
      expect(result.partialFingerprints.primaryLocationLineHash).to.match(/^[0-9a-f]{16}:1$/);
    }
  }

  it('gives an attributed history one note per attributed commit, at the file it changed, with fingerprints that a second run repeats', async () => {
    // The validator refuses what is not SARIF: a log without its version, a result with an unknown level.
    expect(validate({ runs: [] })).to.equal(false);
    expect(
      validate({
        version: '2.1.0',
        runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }],
      }),
    ).to.equal(false);
    const { dir, hashes } = await repository('attributed', [
      ...humanHistory(4),
      {
        message: `Add parser\n\n${CLAUDE}`,
        date: Date.UTC(2025, 0, 2, 10) / 1000,
        addLines: 40,
        file: 'src/parser.ts',
      },
      { message: `Add lexer\n\n${CLAUDE}`, date: Date.UTC(2025, 0, 3, 15) / 1000, addLines: 30, file: 'src/lexer.ts' },
    ]);
    const first = await sarifOf(dir, 'attributed.sarif');
    const results = first.runs[0]!.results;
    const attributed = results.filter((r) => r.ruleId === ATTRIBUTED);
    expect(attributed.map((r) => r.properties.commit)).to.deep.equal([hashes[4], hashes[5]]);
    expect(attributed.map((r) => r.level)).to.deep.equal(['note', 'note']);
    expect(attributed.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).to.deep.equal([
      'src/parser.ts',
      'src/lexer.ts',
    ]);
    expect(attributed[0]!.properties.evidence).to.equal('explicit');
    expect(attributed[0]!.properties.assistants).to.deep.equal(['Claude Code']);
    // The strategies' findings are the reasons of the commit's one result, not results of their own.
    expect(attributed[0]!.properties.reasons.some((r) => r.startsWith('attribution (explicit)'))).to.equal(true);
    expect(attributed[0]!.message.text).to.match(/^Commit [0-9a-f]{7,} is attributed to Claude Code: Add parser\./);
    expect(results.some((r) => r.level === 'error')).to.equal(false);
    // Two commits at two files: two fingerprints; a second run gives each commit the same ones.
    expect(new Set(results.map((r) => r.partialFingerprints.primaryLocationLineHash)).size).to.equal(results.length);
    const second = await sarifOf(dir, 'attributed-again.sarif');
    const fingerprints = (log: SarifLog) =>
      Object.fromEntries(log.runs[0]!.results.map((r) => [r.properties.commit, r.partialFingerprints]));
    expect(Object.keys(fingerprints(first))).to.have.length(results.length);
    expect(fingerprints(second)).to.deep.equal(fingerprints(first));
  });

  it('gives a human history, with or without dependabot bumps, no error', async () => {
    const { dir } = await repository('human', humanHistory(12));
    const human = await sarifOf(dir, 'human.sarif');
    expect(human.runs[0]!.properties.assessment).to.equal('clean');
    expect(human.runs[0]!.results.filter((r) => r.level === 'error')).to.deep.equal([]);

    // A bump now and then: clean, nothing flagged.
    const spaced = await repository('dependabot', withBumps(2, 1, 0));
    const quiet = await sarifOf(spaced.dir, 'dependabot.sarif');
    expect(quiet.runs[0]!.properties.assessment).to.equal('clean');
    expect(quiet.runs[0]!.results.filter((r) => r.level === 'error')).to.deep.equal([]);

    // Bumps three at a time, 40 s apart, by dependabot: automation, never flagged (docs/scoring.md).
    const clustered = await repository('dependabot-burst', withBumps(4, 3, 40));
    const automation = await sarifOf(clustered.dir, 'dependabot-burst.sarif');
    expect(automation.runs[0]!.properties.assessment).to.equal('clean');
    expect(automation.runs[0]!.results).to.deep.equal([]);

    // The same bursts by a person, under conventional subjects with a scope: the model flags some of
    // them (bursts of bulleted, scoped commits by an author who writes nothing else), and they are
    // warnings to review, never errors without a policy.
    const byHand = await repository(
      'hand-bumps-burst',
      withBumps(
        4,
        3,
        40,
        { name: 'Dee Pendent', email: 'dee@example.test' },
        'chore(deps): bump the npm group with 3 updates',
      ),
    );
    const log = await sarifOf(byHand.dir, 'hand-bumps-burst.sarif');
    const results = log.runs[0]!.results;
    expect(results.length).to.be.above(0);
    expect(results.map((r) => r.level)).to.satisfy((levels: string[]) => levels.every((l) => l === 'warning'));
    // Located at the manifest, which remains, never at the lock file (excluded from the counts) nor outside the tree.
    expect([...new Set(results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri))]).to.deep.equal([
      'package.json',
    ]);
  });

  it('marks results error only when --fail-on (or report.fail_on) is set and the verdict reaches it', async () => {
    const { dir } = await repository('burst', burstHistory(6));
    const plain = await sarifOf(dir, 'burst.sarif');
    expect(plain.runs[0]!.results.length).to.be.above(0);
    expect(plain.runs[0]!.results.map((r) => r.level)).to.satisfy((levels: string[]) =>
      levels.every((l) => l === 'warning'),
    );
    expect(plain.runs[0]!.properties.fail_on).to.equal(undefined);

    const gated = await sarifOf(dir, 'burst-gated.sarif', ['--fail-on', 'suspicious'], 3);
    expect(gated.runs[0]!.properties.fail_on).to.equal('suspicious');
    expect(gated.runs[0]!.properties.verdict_reaches_fail_on).to.equal(true);
    expect(gated.runs[0]!.results.length).to.equal(plain.runs[0]!.results.length);
    expect(gated.runs[0]!.results.map((r) => r.level)).to.satisfy((levels: string[]) =>
      levels.every((l) => l === 'error'),
    );

    // The configuration's policy counts the same (the CLI still exits 0: only --fail-on gates it).
    const config = path.join(work.path, 'fail-on.yaml');
    await writeFile(config, 'report:\n  fail_on: suspicious\n');
    const configured = await sarifOf(dir, 'burst-configured.sarif', ['--config', config]);
    expect(configured.runs[0]!.results.map((r) => r.level)).to.satisfy(
      (levels: string[]) => levels.length > 0 && levels.every((l) => l === 'error'),
    );

    // A clean verdict does not reach the policy: no error.
    const { dir: human } = await repository('human-gated', humanHistory(10));
    const clean = await sarifOf(human, 'human-gated.sarif', ['--fail-on', 'suspicious']);
    expect(clean.runs[0]!.properties.verdict_reaches_fail_on).to.equal(false);
    expect(clean.runs[0]!.results.filter((r) => r.level === 'error')).to.deep.equal([]);
  });

  it('locates no result at a file gone at the head: a flagged commit whose files were all deleted is counted instead', async () => {
    const { dir, hashes } = await repository('deleted', [
      ...burstHistory(4),
      // Much later, by hand: the first two modules are removed.
      {
        message: 'Remove modules 1 and 2',
        date: Date.UTC(2025, 8, 1, 10) / 1000,
        files: { 'src/module1.ts': null, 'src/module2.ts': null },
      },
    ]);
    const log = await sarifOf(dir, 'deleted.sarif');
    const run = log.runs[0]!;
    const gone = [hashes[0]!, hashes[1]!];
    // Both burst commits of the removed modules are flagged, yet no result names them or their files.
    expect(run.properties.flagged_without_location.listed).to.include.members(gone);
    expect(run.properties.flagged_without_location.commits).to.be.at.least(2);
    expect(run.results.map((r) => r.properties.commit)).to.not.include.members([gone[0]]);
    expect(run.results.map((r) => r.properties.commit)).to.not.include.members([gone[1]]);
    expect(run.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).to.include.members([
      'src/module3.ts',
      'src/module4.ts',
    ]);
  });

  it('is picked by the .sarif extension, and an unknown extension still exits 2 naming .sarif among the choices', async () => {
    const run = await runCadence(['analyze', work.path, '-o', 'report.pdf'], { cwd: work.path });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('.sarif');
  });
});
