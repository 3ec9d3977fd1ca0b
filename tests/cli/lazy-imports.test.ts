import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  burstHistory,
  createRepository,
  importRecorder,
  jsonPost,
  makeTempDir,
  runCadence,
  startCadenceServer,
  type CliRun,
  type ImportRecorder,
  type TempDir,
} from '@cadence-detect/test-support';

/**
 * What each command imports, seen from inside the real CLI process (importRecorder). Start-up time
 * is a benchmark's business (bench/cli-startup.mjs); this test keeps the reason for it from
 * regressing: a static import of the engine, a plugin, an AI SDK, Koa or the HTML report where it is
 * not needed.
 */
describe('each command imports only what it uses (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: string;
  let recorder: ImportRecorder;

  before(async () => {
    work = await makeTempDir('cadence-lazy-imports-');
    recorder = await importRecorder(work.path);
    repo = path.join(work.path, 'repo');
    await mkdir(repo);
    await createRepository(repo, burstHistory(6));
  });
  after(() => work.remove());

  /** Runs the CLI and returns the URLs it imported. */
  async function imports(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ run: CliRun; urls: string[] }> {
    await recorder.clear();
    const run = await runCadence(args, { cwd: work.path, env: { ...env, ...recorder.env } });
    expect(run.code, run.stderr).to.equal(0);
    return { run, urls: await recorder.urls() };
  }

  const matching = (urls: string[], pattern: RegExp): string[] => [...new Set(urls.filter((url) => pattern.test(url)))];
  const AI_SDKS = /\/(openai|@anthropic-ai\/sdk)\//;
  const SERVER = /\/(koa|@koa\/router|koa-body|packages\/server)\//;
  const HTML_REPORT = /\/reports\/dist\/html-report\.js$/;

  for (const args of [['version'], ['--help'], ['analyze', '--help']]) {
    it(`cadence ${args.join(' ')} imports no plugin, engine, configuration schema, AI SDK or server`, async () => {
      const { urls } = await imports(args);
      expect(matching(urls, /\/host\/dist\/cli\/main\.js$/), 'the recorder saw the CLI').to.have.length(1);
      expect(matching(urls, /\/plugins\/[^/]+\/dist\/|\/packages\/engine\/|\/typebox(\/|\.mjs$)/)).to.deep.equal([]);
      expect(matching(urls, AI_SDKS)).to.deep.equal([]);
      expect(matching(urls, SERVER)).to.deep.equal([]);
    });
  }

  it('cadence analyze of a repository with a text report runs the plugins without the AI SDKs, the server, the HTML report, the page parser or TypeBox\u2019s modules one by one', async () => {
    const { run, urls } = await imports(['analyze', repo]);
    expect(run.stdout).to.match(/^Verdict: .*\n(False-alarm floor: .*\n)?Repository: repo/);
    expect(matching(urls, /\/plugins\/size\/dist\/index\.js$/)).to.have.length(1);
    expect(matching(urls, /\/plugins\/ai-assist\/dist\/index\.js$/)).to.have.length(1);
    expect(matching(urls, AI_SDKS)).to.deep.equal([]);
    expect(matching(urls, SERVER)).to.deep.equal([]);
    expect(matching(urls, HTML_REPORT)).to.deep.equal([]);
    // The page fetcher and the HTML parser are a website's; a repository analysis never needs them.
    expect(matching(urls, /\/(parse5|packages\/web-source)\//)).to.deep.equal([]);
    // TypeBox comes as the SDK's one module, never as the package's hundreds (each costs the start).
    expect(matching(urls, /\/plugin-sdk\/dist\/typebox\.mjs$/)).to.have.length(1);
    expect(matching(urls, /\/typebox\//)).to.deep.equal([]);
    // yaml and semver come as their packages' vendor modules (one file each), simple-git with a clone.
    expect(matching(urls, /\/node_modules\/(yaml|semver|simple-git)\//)).to.deep.equal([]);
    expect(matching(urls, /\/config\/dist\/vendor\/yaml\.js$/)).to.have.length(1);
    expect(matching(urls, /\/git-source\/dist\/vendor\/semver\.js$/)).to.have.length(1);
  });

  it('imports the HTML report to write one', async () => {
    const { urls } = await imports(['analyze', repo, '-o', path.join(work.path, 'report.html')]);
    expect(matching(urls, HTML_REPORT)).to.have.length(1);
  });

  it('cadence scan writing JSON imports no HTML page; writing HTML imports the organization page', async () => {
    const list = path.join(work.path, 'repos.txt');
    await writeFile(list, `${repo}\n`);
    const config = path.join(work.path, 'scan.yaml');
    await writeFile(config, `cache:\n  repositories_dir: ${JSON.stringify(path.join(work.path, 'scan-cache'))}\n`);
    const ORGANIZATION_PAGE = /\/organization\/dist\/render-html\.js$/;
    const json = await imports(['scan', '--repos', list, '-o', path.join(work.path, 'org.json'), '--config', config]);
    expect(
      matching(json.urls, /\/organization\/dist\/index(\.bundle)?\.js$/),
      'the recorder saw the scan',
    ).to.have.length(1);
    expect(matching(json.urls, ORGANIZATION_PAGE)).to.deep.equal([]);
    expect(matching(json.urls, HTML_REPORT)).to.deep.equal([]);
    expect(matching(json.urls, /\/reports\/dist\/index\.js$/)).to.deep.equal([]);
    const html = await imports(['scan', '--repos', list, '-o', path.join(work.path, 'org.html'), '--config', config]);
    expect(matching(html.urls, ORGANIZATION_PAGE)).to.have.length(1);
  });

  it('cadence webhook imports the body parser (koa-body, with zod and formidable) when a route first reads a body, and no page parser, not at start', async () => {
    await recorder.clear();
    const cwd = path.join(work.path, 'server');
    await mkdir(cwd);
    const server = await startCadenceServer({ cwd, env: recorder.env });
    try {
      // koa-body comes as the server's vendor module (with formidable and zod), in a chunk of its own.
      const BODY_PARSER = /\/(koa-body|zod|formidable)\/|\/vendor\/koa-body\.js$/;
      const started = await recorder.urls();
      expect(
        matching(started, /\/packages\/server\/dist\/index(\.bundle)?\.js$/),
        'the recorder saw the server',
      ).to.have.length(1);
      expect(matching(started, BODY_PARSER)).to.deep.equal([]);
      // Nor the page parser: the main thread only checks website URLs.
      expect(matching(started, /\/parse5\//)).to.deep.equal([]);
      // The metrics and the rate limits come as the server's vendor modules, not file by file.
      expect(
        matching(started, /\/node_modules\/(prom-client|@opentelemetry\/api|rate-limiter-flexible|koa|@koa\/router)\//),
      ).to.deep.equal([]);
      expect(matching(started, /\/server\/dist\/vendor\/(prom-client|rate-limiter-flexible|koa)\.js$/)).to.have.length(
        3,
      );
      // A body the route reads, then refuses: parsed by koa-body, checked against the schema.
      const refused = await server.json('/api/analyze/repository', jsonPost({ url: 42 }));
      expect(refused.status).to.equal(400);
      expect(matching(await recorder.urls(), BODY_PARSER)).to.not.deep.equal([]);
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('imports the configured provider\u2019s SDK, and only it, when AI analysis runs', async () => {
    // Nothing listens on port 9 of the loopback: the call fails at once, after the SDK was loaded.
    // The heuristic scoring flags the burst commits, so there is something to send.
    const heuristic = path.join(work.path, 'heuristic.yaml');
    await writeFile(heuristic, 'strategies:\n  disabled: [commit-model]\n');
    const { run, urls } = await imports(['analyze', repo, '--json', '--config', heuristic], {
      CADENCE_AI_ENABLED: 'true',
      CADENCE_AI_PROVIDER: 'anthropic',
      CADENCE_AI_KEY: 'sk-lazy-import-test',
      CADENCE_AI_BASE_URL: 'http://127.0.0.1:9',
      CADENCE_AI_RETRY_COUNT: '0',
    });
    expect((JSON.parse(run.stdout) as { ai?: { items_sent: number } }).ai?.items_sent, 'the AI step ran').to.be.above(
      0,
    );
    expect(matching(urls, /\/@anthropic-ai\/sdk\//)).to.not.deep.equal([]);
    expect(matching(urls, /\/openai\//)).to.deep.equal([]);
  });
});
