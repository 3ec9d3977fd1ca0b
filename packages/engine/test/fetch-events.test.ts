import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { createEngine, silentEngineLogger, type EmittedEvent } from '../src/index.js';

describe('engine: what the fetch events say', () => {
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-fetch-events-');
    await mkdir(path.join(work.path, 'repo'));
    await createRepository(path.join(work.path, 'repo'), [
      { message: 'First', date: Date.UTC(2024, 0, 1) / 1000, addLines: 3 },
    ]);
  });
  after(() => work.remove());

  it('a local path is read and opened, never said to be cloned', async () => {
    const config = defaultConfig();
    const events: EmittedEvent[] = [];
    await createEngine({
      config,
      pluginConfig: toPluginConfigView(config),
      logger: silentEngineLogger(),
      plugins: [],
    }).analyze(
      { kind: 'repository', url: path.join(work.path, 'repo') },
      { network: null, allowLocalPaths: true, onEvent: (e) => void events.push(e) },
    );
    const messages = events.filter((e) => e.event === 'fetch').map((e) => (e as { message: string }).message);
    expect(messages).to.deep.equal([
      `reading ${path.join(work.path, 'repo')}`,
      'opened',
      'read 1 commit',
      'lines in one pass over 1 commit: 0 files blamed, 0 moved lines kept with their writers',
    ]);
  });
});
