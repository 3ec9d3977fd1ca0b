import {
  createEngine,
  silentEngineLogger,
  type EmittedEvent,
  type EngineLogger,
  type PreparedSource,
} from '@cadence-detect/engine';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type {
  AnalysisResult,
  AuthorshipLog,
  CadencePlugin,
  CommitRecord,
  Detection,
  RepositoryResult,
  StrategyResult,
  WebsiteResult,
} from '@cadence-detect/plugin-sdk';
import { incompatibility, resolvePluginOptions, targetedRange } from '@cadence-detect/plugin-loader';
import { parseAuthorshipLog, PLUGIN_API_VERSION } from '@cadence-detect/plugin-sdk';
import { parseDocument } from '@cadence-detect/web-source';
import { statsOf } from './commits.js';
import { engineConfig, pluginConfigView, type TestConfig } from './defaults.js';

export type TestSource =
  /** Hand-made commits (see makeCommits), oldest first; optionally git notes under refs/notes/ai, and a push (`branch` and `push`). */
  | HandMadeCommits
  /** A real git repository on disk (e.g. made with @cadence-detect/test-support's createRepository). */
  | { readonly repository: string; readonly branch?: string }
  /** A page, parsed by the real document model. */
  | { readonly html: string; readonly url?: string; readonly contentType?: string };

export interface HandMadeCommits {
  readonly commits: readonly CommitRecord[];
  readonly diffs?: Readonly<Record<string, string>>;
  /**
   * Notes under refs/notes/ai by full commit hash.
   * @since 1.2
   */
  readonly aiNotes?: Readonly<Record<string, string>>;
  /** The analyzed branch (default `main`). */
  readonly branch?: string;
  /** Analyze the commits as a push to `branch` (the pushed range is all of them). */
  readonly push?: boolean;
}

export interface PluginRun<R extends AnalysisResult = AnalysisResult> {
  readonly result: R;
  readonly detections: readonly Detection[];
  readonly strategyResults: readonly StrategyResult[];
  readonly events: readonly EmittedEvent[];
  /**
   * The reasons the plugins gave for keeping this result out of the result cache
   * (`context.keepOutOfCache`), in order; empty when the result would be kept.
   * @since 2.0
   */
  readonly keptOutOfCache: readonly string[];
  /** Detections of one strategy. */
  detectionsOf(strategy: string): Detection[];
  /** The strategy_results entry of one strategy (throws when it did not run). */
  strategy(name: string): StrategyResult;
}

export interface RunOptions extends TestConfig {
  readonly signal?: AbortSignal;
  readonly logger?: EngineLogger;
  /** Other plugins to load beside the one under test (their strategies run too). */
  readonly alongside?: readonly CadencePlugin[];
  /**
   * Options of the plugin under test, checked against its `meta.options` schema as the host does.
   * @since 1.1
   */
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * Runs one plugin through the real engine (hooks, strategy runner, validation, scoring) on the
 * given source, as ESLint's RuleTester runs one rule: nothing is mocked but the source's origin.
 */
export async function runPlugin(
  plugin: CadencePlugin,
  source: HandMadeCommits,
  options?: RunOptions,
): Promise<PluginRun<RepositoryResult>>;
export async function runPlugin(
  plugin: CadencePlugin,
  // eslint-disable-next-line @typescript-eslint/unified-signatures -- One overload per kind of source, each with its own documentation and result type
  source: { repository: string; branch?: string },
  options?: RunOptions,
): Promise<PluginRun<RepositoryResult>>;
export async function runPlugin(
  plugin: CadencePlugin,
  source: { html: string; url?: string; contentType?: string },
  options?: RunOptions,
): Promise<PluginRun<WebsiteResult>>;
export async function runPlugin(
  plugin: CadencePlugin,
  source: TestSource,
  options: RunOptions = {},
): Promise<PluginRun> {
  const engine = testEngine(plugin, options);
  const events: EmittedEvent[] = [];
  const onEvent = (event: EmittedEvent): void => {
    events.push(event);
  };
  const signal = options.signal ?? new AbortController().signal;
  const keptOutOfCache: string[] = [];
  const onKeepOutOfCache = (reason: string): void => {
    keptOutOfCache.push(reason);
  };
  let result: AnalysisResult;
  if ('repository' in source) {
    result = await engine.analyze(
      {
        kind: 'repository',
        url: source.repository,
        branch: source.branch ?? null,
        thresholds: options.thresholds ?? {},
      },
      { signal, onEvent, onKeepOutOfCache, network: null, allowLocalPaths: true },
    );
  } else {
    result = await engine.analyzeSource(prepare(source), { signal, onEvent, onKeepOutOfCache }, options.thresholds);
  }
  return {
    result,
    detections: result.detections,
    strategyResults: result.strategy_results,
    events,
    keptOutOfCache,
    detectionsOf: (strategy) => result.detections.filter((d) => d.strategy === strategy),
    strategy: (name) => {
      const found = result.strategy_results.find((s) => s.name === name);
      if (!found)
        throw new Error(
          `strategy "${name}" did not run (ran: ${result.strategy_results.map((s) => s.name).join(', ') || 'none'})`,
        );
      return found;
    },
  };
}

/** The real engine with the plugin (and those `alongside`), after the host's own checks: a plugin built for another API version, or options its schema refuses, fail here too. */
function testEngine(plugin: CadencePlugin, options: RunOptions): ReturnType<typeof createEngine> {
  const problem = incompatibility(targetedRange(plugin.apiVersion, undefined) ?? `^${PLUGIN_API_VERSION}`);
  if (problem) throw new Error(`plugin ${plugin.name} ${problem}`);
  const loaded: LoadedPlugin[] = [plugin, ...(options.alongside ?? [])].map((p) => ({
    plugin: p,
    packageName: p.name,
    version: '0.0.0-test',
    source: 'config' as const,
  }));
  const plugins = resolvePluginOptions(loaded, {
    sections: options.options ? { [plugin.name]: options.options } : {},
    inline: new Map(),
  });
  return createEngine({
    config: engineConfig(options),
    pluginConfig: pluginConfigView(options),
    logger: options.logger ?? silentEngineLogger(),
    plugins,
  });
}

function prepare(source: Exclude<TestSource, { repository: string }>): PreparedSource {
  if ('commits' in source) {
    const commits = source.commits;
    const last = commits[commits.length - 1];
    const head = last?.hash ?? '';
    return {
      kind: 'repository',
      info: {
        url: 'testkit://commits',
        repo: 'testkit/commits',
        branch: source.branch ?? 'main',
        headCommit: head,
        range: source.push ? { before: commits[0]?.parents[0] ?? null, after: head } : null,
        shallow: false,
      },
      commits,
      ...(source.push ? { partialHistory: true } : {}),
      stats: statsOf(commits),
      aiNotes: new Map(Object.entries(source.aiNotes ?? {})),
      // As the host does: each note parsed whole, those that are authorship logs.
      authorshipLogs: new Map(
        Object.entries(source.aiNotes ?? {}).flatMap(([commit, text]): [string, AuthorshipLog][] => {
          const log = parseAuthorshipLog(text);
          return typeof log === 'string' ? [] : [[commit, log]];
        }),
      ),
      diffExcerpt: async (hash, maxBytes) => (source.diffs?.[hash] ?? '').slice(0, maxBytes),
      dispose: async () => undefined,
    };
  }
  const url = source.url ?? 'https://testkit.invalid/page';
  const contentType = source.contentType ?? 'text/html';
  const document = parseDocument(source.html, { url, contentType });
  return {
    kind: 'website',
    info: { url, finalUrl: url, contentType, bytes: Buffer.byteLength(source.html) },
    document,
    contentDigest: '',
    dispose: async () => undefined,
  };
}
