import { expect } from 'chai';
import { makeCommits, runPlugin, type RunOptions } from '@cadence-detect/plugin-testkit';
import size from '@cadence-detect/plugin-size';
import aiAssist, { OVERALL_WEIGHT, type AiOptions } from '../src/index.js';
import { anthropicAnswer, askedIds, fakeProvider, openaiAnswer, status, verdictsJson } from './fake-providers.js';
import { eventually } from '@cadence-detect/test-support';

const T0 = Date.parse('2025-01-01T00:00:00Z') / 1000;
/** Five commits over suspicious_additions (and five small ones), hours apart: size flags five. */
const commits = makeCommits(
  Array.from({ length: 10 }, (_, i) => ({
    at: T0 + i * 7200,
    additions: i % 2 === 1 ? 1200 : 20,
    subject: `change ${i}`,
  })),
);
const KEY = 'sk-test-secret-key-123456';

function options(baseUrl: string, ai: Partial<AiOptions> = {}): RunOptions {
  // The plugin's own options (API 1.1), checked against AI_OPTIONS by the testkit as by the host.
  return {
    alongside: [size],
    options: {
      enabled: true,
      provider: 'openai',
      key: KEY,
      baseUrl,
      model: 'gpt-test',
      batch_size: 2,
      retry_count: 2,
      retry_backoff_initial: 10,
      timeout_seconds: 5,
      ...ai,
    },
  };
}

describe('ai-assist plugin against fake providers', function () {
  this.timeout(30_000);

  it('openai: sends the flagged commits in batches with the key, the model and JSON mode, and blends the verdicts in', async () => {
    const fake = await fakeProvider((req, _i, res) => openaiAnswer(res, verdictsJson(askedIds(req))));
    try {
      const baseline = await runPlugin(aiAssist, { commits }, { alongside: [size] });
      const run = await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1')));
      expect(fake.requests).to.have.length(3);
      for (const request of fake.requests) {
        expect(request.path).to.equal('/v1/chat/completions');
        expect(request.headers.authorization).to.equal(`Bearer ${KEY}`);
        expect(request.body.model).to.equal('gpt-test');
        expect(request.body.response_format).to.deep.equal({ type: 'json_object' });
      }
      expect(fake.requests.map((r) => askedIds(r).length)).to.deep.equal([2, 2, 1]);
      const ai = run.result.ai!;
      expect(ai).to.include({ provider: 'openai', model: 'gpt-test', items_sent: 5 });
      expect(ai.verdicts).to.have.length(5);
      expect(ai.tokens).to.deep.equal({ input: 300, output: 60 });
      expect(run.result.overall_score).to.be.closeTo(
        Math.min(1, baseline.result.overall_score + OVERALL_WEIGHT * 0.9),
        0.002,
      );
      const before = baseline.result.suspicions[0]!.confidence;
      expect(run.result.suspicions[0]!.confidence).to.be.closeTo(before * (1 - 0.45) + 0.45, 0.002);
      expect(
        run.events.filter((e) => e.event === 'ai_analysis').map((e) => (e as { in_progress: boolean }).in_progress),
      ).to.deep.equal([true, false]);
    } finally {
      await fake.server.close();
    }
  });

  it('anthropic: uses the messages API with the key and anthropic-version; human verdicts lower the score', async () => {
    const fake = await fakeProvider((req, _i, res) => anthropicAnswer(res, verdictsJson(askedIds(req), 'human', 1)));
    try {
      const baseline = await runPlugin(aiAssist, { commits }, { alongside: [size] });
      const run = await runPlugin(
        aiAssist,
        { commits },
        options(fake.server.url(''), { provider: 'anthropic', model: 'claude-test', batch_size: 10 }),
      );
      expect(fake.requests).to.have.length(1);
      const [request] = fake.requests;
      expect(request!.path).to.equal('/v1/messages');
      // The official SDK decides the header: x-api-key in 0.x, a bearer token in 1.x.
      expect([request!.headers['x-api-key'], request!.headers.authorization]).to.include.oneOf([KEY, `Bearer ${KEY}`]);
      expect(request!.headers['anthropic-version']).to.be.a('string');
      expect(request!.body.model).to.equal('claude-test');
      expect(run.result.overall_score).to.be.closeTo(
        Math.max(0, baseline.result.overall_score - OVERALL_WEIGHT),
        0.002,
      );
      expect(run.result.ai!.tokens).to.deep.equal({ input: 80, output: 15 });
    } finally {
      await fake.server.close();
    }
  });

  it('retries 500s retry_count times, then records ERR_AI_PROVIDER_UNAVAILABLE and keeps the heuristic result', async () => {
    const fake = await fakeProvider((_req, _i, res) => status(res, 500));
    try {
      const baseline = await runPlugin(aiAssist, { commits }, { alongside: [size] });
      const run = await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1')));
      expect(fake.requests).to.have.length(3);
      expect(run.result.ai!.error!.code).to.equal('ERR_AI_PROVIDER_UNAVAILABLE');
      expect(run.result.overall_score).to.equal(baseline.result.overall_score);
      expect(JSON.stringify(run.result)).to.not.contain(KEY);
      // A brief failure: the result is not kept, the next identical analysis asks again.
      expect(run.keptOutOfCache).to.deep.equal(['the AI analysis failed (ERR_AI_PROVIDER_UNAVAILABLE)']);
      expect(baseline.keptOutOfCache).to.deep.equal([]);
    } finally {
      await fake.server.close();
    }
  });

  it('waits retry_backoff_initial before the first retry and twice that before the second (no SDK retries in between)', async () => {
    const fake = await fakeProvider((_req, _i, res) => status(res, 503));
    try {
      const run = await runPlugin(
        aiAssist,
        { commits },
        options(fake.server.url('/v1'), { batch_size: 10, retry_backoff_initial: '300ms' }),
      );
      // retry_count 2: three calls, the provider SDK's own retries (maxRetries) would add more.
      expect(fake.requests).to.have.length(3);
      const [first, second, third] = fake.requests.map((r) => r.at);
      expect(second! - first!)
        .to.be.at.least(290)
        .and.below(600);
      expect(third! - second!).to.be.at.least(590);
      expect(run.result.ai!.error).to.deep.include({ code: 'ERR_AI_PROVIDER_UNAVAILABLE' });
      expect(run.result.ai!.error!.message).to.match(/^The AI provider is unavailable after 2 retries \(503\): /);
    } finally {
      await fake.server.close();
    }
  });

  it('stops waiting for the next retry when the job is cancelled', async () => {
    const fake = await fakeProvider((_req, _i, res) => status(res, 500));
    try {
      const controller = new AbortController();
      const pending = runPlugin(
        aiAssist,
        { commits },
        {
          ...options(fake.server.url('/v1'), { batch_size: 10, retry_backoff_initial: '20s' }),
          signal: controller.signal,
        },
      );
      // The first attempt answered 500: the plugin now waits 20 s for its retry.
      await eventually(() => fake.answered() > 0, 'the first attempt answered');
      const started = Date.now();
      controller.abort();
      const error = await pending.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.have.property('code', 'ERR_CANCELLED');
      expect(Date.now() - started).to.be.below(2000);
      expect(fake.requests).to.have.length(1);
    } finally {
      await fake.server.close();
    }
  });

  it('maps 401 to ERR_AI_API_KEY_INVALID without retrying, and never shows the key', async () => {
    const fake = await fakeProvider((_req, _i, res) => status(res, 401));
    try {
      const run = await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1')));
      expect(fake.requests).to.have.length(1);
      expect(run.result.ai!.error!.code).to.equal('ERR_AI_API_KEY_INVALID');
      expect(JSON.stringify(run.result)).to.not.contain(KEY);
    } finally {
      await fake.server.close();
    }
  });

  it('honours Retry-After on 429, and gives ERR_AI_RATE_LIMIT when it never stops', async () => {
    const fake = await fakeProvider((req, i, res) =>
      i === 0 ? status(res, 429, { 'retry-after': '1' }) : openaiAnswer(res, verdictsJson(askedIds(req))),
    );
    try {
      const run = await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1'), { batch_size: 10 }));
      expect(fake.requests).to.have.length(2);
      expect(fake.requests[1]!.at - fake.requests[0]!.at).to.be.at.least(950);
      expect(run.result.ai!.error).to.equal(undefined);
    } finally {
      await fake.server.close();
    }
    const always = await fakeProvider((_req, _i, res) => status(res, 429));
    try {
      const run = await runPlugin(aiAssist, { commits }, options(always.server.url('/v1'), { batch_size: 10 }));
      expect(run.result.ai!.error!.code).to.equal('ERR_AI_RATE_LIMIT');
      expect(always.requests).to.have.length(3);
    } finally {
      await always.server.close();
    }
  });

  it('survives a garbage answer: no verdicts, counted, the heuristic result stands', async () => {
    const fake = await fakeProvider((_req, _i, res) => openaiAnswer(res, 'I think these look fine! {not json'));
    try {
      const baseline = await runPlugin(aiAssist, { commits }, { alongside: [size] });
      const run = await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1'), { batch_size: 10 }));
      expect(run.result.ai!.verdicts).to.have.length(0);
      expect(run.result.ai!.malformed_answers).to.equal(5);
      expect(run.result.ai!.error).to.equal(undefined);
      expect(run.result.overall_score).to.equal(baseline.result.overall_score);
    } finally {
      await fake.server.close();
    }
  });

  it('aborts the call in flight when the job is cancelled', async () => {
    const fake = await fakeProvider(() => undefined);
    try {
      const controller = new AbortController();
      const pending = runPlugin(
        aiAssist,
        { commits },
        { ...options(fake.server.url('/v1')), signal: controller.signal },
      );
      await eventually(() => fake.requests.length > 0, 'the provider asked');
      const started = Date.now();
      controller.abort();
      const error = await pending.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.have.property('code', 'ERR_CANCELLED');
      expect(Date.now() - started).to.be.below(2000);
      await eventually(() => fake.closed() === 1, 'the request closed before its answer');
    } finally {
      await fake.server.close();
    }
  });

  it('sends nothing when AI is disabled, and ignores the SDKs\u2019 own environment variables', async () => {
    const fake = await fakeProvider((req, _i, res) => openaiAnswer(res, verdictsJson(askedIds(req))));
    const saved = { ...process.env };
    try {
      const disabled = await runPlugin(
        aiAssist,
        { commits },
        { alongside: [size], options: { enabled: false, key: KEY, baseUrl: fake.server.url('/v1') } },
      );
      expect(fake.requests).to.have.length(0);
      expect(disabled.result.ai).to.equal(undefined);
      process.env.OPENAI_API_KEY = 'sk-from-environment';
      process.env.OPENAI_BASE_URL = 'http://127.0.0.1:1/v1';
      process.env.OPENAI_ORG_ID = 'org-env';
      await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1'), { batch_size: 10 }));
      expect(fake.requests).to.have.length(1);
      expect(fake.requests[0]!.headers.authorization).to.equal(`Bearer ${KEY}`);
      expect(fake.requests[0]!.headers['openai-organization']).to.equal(undefined);
    } finally {
      process.env = saved;
      await fake.server.close();
    }
  });

  it('caps what one job sends by max_items_per_job and max_chars_per_job', async () => {
    const fake = await fakeProvider((req, _i, res) => openaiAnswer(res, verdictsJson(askedIds(req))));
    try {
      const run = await runPlugin(
        aiAssist,
        { commits },
        options(fake.server.url('/v1'), { batch_size: 10, max_items_per_job: 2 }),
      );
      expect(run.result.ai!.items_sent).to.equal(2);
      const small = await runPlugin(
        aiAssist,
        { commits },
        options(fake.server.url('/v1'), { batch_size: 10, max_chars_per_job: 500 }),
      );
      expect(small.result.ai!.items_sent).to.be.at.most(2);
      expect(JSON.stringify(fake.requests.at(-1)!.body).length).to.be.below(3000);
    } finally {
      await fake.server.close();
    }
  });

  it('records a missing key as ERR_AI_API_KEY_INVALID without calling anyone', async () => {
    const fake = await fakeProvider((req, _i, res) => openaiAnswer(res, verdictsJson(askedIds(req))));
    try {
      const run = await runPlugin(aiAssist, { commits }, options(fake.server.url('/v1'), { key: null }));
      expect(run.result.ai!.error!.code).to.equal('ERR_AI_API_KEY_INVALID');
      expect(fake.requests).to.have.length(0);
    } finally {
      await fake.server.close();
    }
  });
});
