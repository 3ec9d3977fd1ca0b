import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvModule from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { burstHistory, createRepository, humanHistory, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

/** The published SARIF 2.1.0 schema, as an npm package ships it (never a copy in this repository). */
function sarifValidator() {
  const require = createRequire(import.meta.url);
  const schemaFile = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(require('node:fs').readFileSync(schemaFile, 'utf8')) as object;
  // Both packages are CommonJS with a default export: under ESM it sits on `.default`.
  type AjvInstance = { compile(schema: object): ValidateFunction };
  const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (options: object) => AjvInstance;
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: AjvInstance) => void;
  // The schema's language-tag pattern is not valid in Unicode mode: compile its patterns as plain ones.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string }[] } };
    results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[]; properties: { commit?: string; evidence: string } }[];
    properties: { assessment: string };
  }[];
}

describe('cadence analyze -o report.sarif (SARIF 2.1.0)', function () {
  this.timeout(60_000);
  let work: TempDir;
  const validate = sarifValidator();

  before(async () => {
    work = await makeTempDir('cadence-sarif-');
  });
  after(() => work.remove());

  async function sarifOf(name: string, commits: Parameters<typeof createRepository>[1]): Promise<SarifLog> {
    const dir = path.join(work.path, name);
    await mkdir(dir);
    await createRepository(dir, commits);
    const run = await runCadence(['analyze', dir, '-o', `${name}.sarif`], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const log = JSON.parse(await readFile(path.join(work.path, `${name}.sarif`), 'utf8')) as SarifLog;
    const valid = validate(log);
    expect(valid, JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
    return log;
  }

  it('validates against the published schema for three repositories: human, burst and attributed', async () => {
    // The validator refuses what is not SARIF: a log without its version, a result with an unknown level.
    expect(validate({ runs: [] })).to.equal(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] })).to.equal(false);
    const human = await sarifOf('human', humanHistory(12));
    const burst = await sarifOf('burst', burstHistory(6));
    const attributed = await sarifOf('attributed', [
      ...humanHistory(3),
      { message: 'Add parser\n\nCo-Authored-By: Claude <noreply@anthropic.com>', date: Date.UTC(2025, 0, 2) / 1000, addLines: 40, file: 'src/parser.ts' },
    ]);
    for (const log of [human, burst, attributed]) {
      expect(log.version).to.equal('2.1.0');
      expect(log.runs[0]!.tool.driver.name).to.equal('Cadence');
      expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).to.include.members(['attribution', 'commit-model', 'velocity', 'size']);
    }
    expect(human.runs[0]!.results).to.deep.equal([]);
    expect(burst.runs[0]!.results.length).to.be.above(0);
    const explicit = attributed.runs[0]!.results.find((r) => r.ruleId === 'attribution');
    expect(explicit?.level).to.equal('error');
    expect(explicit?.properties.evidence).to.equal('explicit');
    expect(explicit?.properties.commit).to.match(/^[0-9a-f]{40}$/);
    expect(explicit?.locations[0]!.physicalLocation.artifactLocation.uri).to.equal('src/parser.ts');
  });

  it('is picked by the .sarif extension, and an unknown extension still exits 2 naming .sarif among the choices', async () => {
    const run = await runCadence(['analyze', work.path, '-o', 'report.pdf'], { cwd: work.path });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('.sarif');
  });
});
