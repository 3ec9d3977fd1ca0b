import { expect } from 'chai';
import { definePlugin, type AnalysisContext, type PluginConfigView } from '@cadence-detect/plugin-sdk';
import { createEngine, silentEngineLogger, type EmittedEvent, type PreparedRepository } from '../src/index.js';

const CONFIG_VIEW: PluginConfigView = {
  thresholds: {
    suspicious_additions: 500,
    suspicious_deletions: 1000,
    max_additions_per_min: 100,
    max_deletions_per_min: 500,
    min_time_delta_seconds: 60,
  },
  exclude_files: [],
  strategies: { disabled: [] },
};

function emptyRepository(): PreparedRepository {
  return {
    kind: 'repository',
    info: { url: 'test://empty', repo: 'test/empty', branch: 'main', headCommit: '', range: null, shallow: false },
    commits: [],
    stats: {
      historyCommits: 0,
      analyzedCommits: 0,
      authors: 0,
      firstCommitTime: null,
      lastCommitTime: null,
      totalAdditions: 0,
      totalDeletions: 0,
      medianAdditions: 0,
      p90Additions: 0,
      medianAuthorIntervalSeconds: null,
    },
    diffExcerpt: async () => '',
    dispose: async () => undefined,
  };
}

function engineWith(tap: (context: AnalysisContext) => void) {
  const plugin = definePlugin({
    name: 'meddler',
    apply(hooks) {
      hooks.beforeAnalysis.tapPromise('meddler', async (context) => tap(context));
    },
  });
  return createEngine({
    config: {
      limits: {
        clone_timeout_seconds: 120,
        max_repo_size_mb: 2048,
        max_page_bytes: 1 << 20,
        fetch_timeout_seconds: 20,
        strategy_timeout_seconds: 30,
      },
      git: { depth: 0 },
    },
    pluginConfig: structuredClone(CONFIG_VIEW),
    logger: silentEngineLogger(),
    plugins: [{ plugin, packageName: 'meddler', version: '0.0.0', source: 'config' }],
  });
}

describe('engine: what plugins cannot reach', () => {
  it('gives each job a deeply frozen configuration: a tap cannot change what later jobs read', async () => {
    const seen: Array<{ disabled: number; additions: number; writes: string[] }> = [];
    const engine = engineWith((context) => {
      const writes: string[] = [];
      // A frozen object refuses the write: strict code throws, sloppy code is ignored; either way the value stays.
      const attempt = (label: string, write: () => void, changed: () => boolean): void => {
        try {
          write();
        } catch {
          // refused
        }
        if (changed()) writes.push(label);
      };
      seen.push({
        disabled: context.config.strategies.disabled.length,
        additions: context.config.thresholds.suspicious_additions,
        writes,
      });
      attempt(
        'strategies.disabled',
        () => (context.config.strategies.disabled as string[]).push('size'),
        () => context.config.strategies.disabled.length > 0,
      );
      attempt(
        'thresholds',
        () => ((context.config.thresholds as { suspicious_additions: number }).suspicious_additions = 1),
        () => context.config.thresholds.suspicious_additions === 1,
      );
      attempt(
        'exclude_files',
        () => (context.config.exclude_files as string[]).push('**'),
        () => context.config.exclude_files.length > 0,
      );
    });
    await engine.analyzeSource(emptyRepository(), {});
    await engine.analyzeSource(emptyRepository(), {});
    expect(seen).to.have.length(2);
    expect(seen[0]!.writes).to.deep.equal([]);
    expect(seen[1]).to.deep.include({ disabled: 0, additions: 500 });
  });

  it('drops start, complete and error events emitted by plugins: only the host ends a stream', async () => {
    const engine = engineWith((context) => {
      context.events.emit({ event: 'complete' } as never);
      context.events.emit({ event: 'error', error: 'ERR_FAKE', message: 'forged' } as never);
      context.events.emit({ event: 'start' } as never);
      context.events.emit({ event: 'progress', commits_analyzed: 0, total_commits: 0 });
    });
    const events: EmittedEvent[] = [];
    await engine.analyzeSource(emptyRepository(), { onEvent: (event) => events.push(event) });
    expect(events.map((e) => e.event)).to.not.include.members(['complete', 'error', 'start']);
    expect(events.map((e) => e.event)).to.include('progress');
  });
});
