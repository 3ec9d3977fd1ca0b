import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import {
  definePlugin,
  type AnalysisRequest,
  type ForgeTarget,
  type JobInfo,
  type PluginLogger,
  type RepositoryResult,
} from '@cadence-detect/plugin-sdk';
import { tapSquashLookup } from '@cadence-detect/forge-kit';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { createEngine, createHooks, silentEngineLogger } from '../src/index.js';

const SHA = 'c'.repeat(40);
const jobOf = (forge: ForgeTarget['forge'] | null): JobInfo => ({
  id: `job-${forge}`,
  url: null,
  forge: forge ? { forge, repository: 'acme/app', sha: SHA } : null,
  deadline: Date.now() + 60_000,
});
const candidate: AnalysisRequest = {
  kind: 'repository',
  url: 'https://example.test/acme/app.git',
  branch: 'main',
  range: { before: 'b'.repeat(40), after: SHA },
  squash_candidate: true,
};

function recordingLogger(lines: string[]): PluginLogger {
  const log = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

describe('prepareRequest (plugin API 1.6): the request refined before its source is fetched', () => {
  it('asks a forge\u2019s squash look-up only for that forge\u2019s one-commit pushes with a range, and adds what it found', async () => {
    const hooks = createHooks();
    const asked: string[] = [];
    const lines: string[] = [];
    tapSquashLookup(hooks, { name: 'github', forge: 'github', logger: recordingLogger(lines) }, async (target) => {
      asked.push(`${target.forge} ${target.sha}`);
      return { number: 21, ref: 'refs/pull/21/head', head: 'd'.repeat(40) };
    });
    const signal = new AbortController().signal;
    const prepare = (request: AnalysisRequest, job: JobInfo | null) =>
      hooks.prepareRequest.promise(request, { job, signal, logger: recordingLogger([]) });

    const found = await prepare(candidate, jobOf('github'));
    expect(found).to.deep.include({
      squash: { commit: SHA, request: 21, ref: 'refs/pull/21/head', head: 'd'.repeat(40) },
    });
    expect(lines).to.deep.equal(['info push squashes a request']);
    // Another forge's job, no job, no candidate, no range, a website: the request as it was, nothing asked.
    const { squash_candidate: _candidate, ...notCandidate } = candidate as Extract<
      AnalysisRequest,
      { kind: 'repository' }
    >;
    const { range: _range, ...noRange } = candidate as Extract<AnalysisRequest, { kind: 'repository' }>;
    for (const [request, job] of [
      [candidate, jobOf('gitlab')],
      [candidate, null],
      [notCandidate, jobOf('github')],
      [noRange, jobOf('github')],
      [{ kind: 'website', url: 'https://example.test/' }, jobOf('github')],
    ] as const) {
      expect(await prepare(request, job)).to.equal(request);
    }
    expect(asked).to.deep.equal([`github ${SHA}`]);
  });

  it('judges the push as it is when the look-up fails, and gives the look-up a signal that ends with the job', async () => {
    const hooks = createHooks();
    const lines: string[] = [];
    let seen: AbortSignal | null = null;
    tapSquashLookup(
      hooks,
      { name: 'gitlab', forge: 'gitlab', logger: recordingLogger(lines) },
      async (_target, signal) => {
        seen = signal;
        throw new Error('503 Service Unavailable');
      },
    );
    const job = new AbortController();
    const request = await hooks.prepareRequest.promise(candidate, {
      job: jobOf('gitlab'),
      signal: job.signal,
      logger: recordingLogger([]),
    });
    expect(request).to.equal(candidate);
    expect(lines).to.deep.equal(['warn squash look-up failed; the push is judged as it is']);
    expect(seen!.aborted).to.equal(false);
    job.abort();
    expect(seen!.aborted, 'the look-up\u2019s signal follows the job\u2019s').to.equal(true);
  });

  describe('run by the engine, for the CLI and the server alike', () => {
    let work: TempDir;
    before(async () => {
      work = await makeTempDir('cadence-prepare-request-');
      await mkdir(path.join(work.path, 'repo'));
      await createRepository(path.join(work.path, 'repo'), [
        { message: 'First', date: Date.UTC(2024, 0, 1) / 1000, addLines: 3 },
      ]);
    });
    after(() => work.remove());

    const engineWith = (tap: (request: AnalysisRequest) => AnalysisRequest) => {
      const config = defaultConfig();
      const plugin = definePlugin({ name: 'rewrite', apply: (hooks) => hooks.prepareRequest.tap('rewrite', tap) });
      return createEngine({
        config,
        pluginConfig: toPluginConfigView(config),
        logger: silentEngineLogger(),
        plugins: [{ plugin, packageName: 'rewrite', version: '0.0.0', source: 'config' }],
      });
    };

    it('fetches the source the taps\u2019 request names, before anything is fetched', async () => {
      const repo = path.join(work.path, 'repo');
      const engine = engineWith((request) => ({ ...request, url: repo }));
      const result = (await engine.analyze(
        { kind: 'repository', url: path.join(work.path, 'nowhere') },
        { network: null, allowLocalPaths: true },
      )) as RepositoryResult;
      expect(result.total_commits).to.equal(1);
    });

    it('fails the job with ERR_INTERNAL when a tap throws', async () => {
      const engine = engineWith(() => {
        throw new Error('a broken tap');
      });
      const error = await engine
        .analyze({ kind: 'repository', url: path.join(work.path, 'repo') }, { network: null, allowLocalPaths: true })
        .then(
          () => null,
          (e: unknown) => e as { code: string },
        );
      expect(error?.code).to.equal('ERR_INTERNAL');
    });
  });
});
