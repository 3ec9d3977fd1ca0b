import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../src/index.js';

function capture(): { stream: { write(chunk: string): void }; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  return {
    stream: { write: (chunk: string) => void chunks.push(chunk) },
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('logger', () => {
  it('writes one JSON object a line in the record docs/deploy.md describes', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', stream: out.stream });
    logger.child('jobs').info('job finished', { job_id: 'abc', duration_ms: 12.6 });
    const [line] = out.lines();
    expect(Object.keys(line!)).to.include.members([
      'timestamp',
      'level',
      'component',
      'message',
      'duration_ms',
      'job_id',
    ]);
    expect(line).to.include({
      level: 'info',
      component: 'jobs',
      message: 'job finished',
      duration_ms: 13,
      job_id: 'abc',
    });
    expect(new Date(String(line!.timestamp)).toISOString()).to.equal(line!.timestamp);
    expect(line).to.not.have.any.keys('msg', 'hostname', 'pid', 'v', 'name', 'time');
  });

  it('filters by level and names levels as words', () => {
    const out = capture();
    const logger = createLogger({ level: 'warn', stream: out.stream });
    logger.debug('hidden');
    logger.info('hidden');
    logger.warn('shown');
    logger.fatal('shown too');
    expect(out.lines().map((l) => l.level)).to.deep.equal(['warn', 'fatal']);
  });

  it('never writes a secret: secret-named fields, configured secret values and URL credentials', () => {
    const out = capture();
    const logger = createLogger({ level: 'debug', stream: out.stream, secrets: ['s3cr3t-webhook-value'] });
    logger.info('signature checked with s3cr3t-webhook-value', {
      headers: { authorization: 'Bearer abcdef123456', 'x-api-key': 'sk-live-000' },
      ai: { key: 'sk-test-123456', model: 'gpt' },
      url: 'https://user:ghp_tokenvalue@github.com/o/r.git',
    });
    const text = JSON.stringify(out.lines());
    for (const secret of ['s3cr3t-webhook-value', 'abcdef123456', 'sk-live-000', 'sk-test-123456', 'ghp_tokenvalue']) {
      expect(text).to.not.contain(secret);
    }
    expect(text).to.contain('gpt');
    expect(text).to.contain('github.com/o/r.git');
  });

  it('never writes the start of a secret cut at the end of a text (a body cut at 200 characters)', () => {
    const out = capture();
    const token = 'glpat-0123456789abcdefghij';
    const logger = createLogger({ level: 'debug', stream: out.stream, secrets: [token] });
    logger.warn('forge answered 502', { reason: `echo: PRIVATE-TOKEN: ${token.slice(0, 14)}` });
    const text = JSON.stringify(out.lines());
    expect(text).to.not.contain(token.slice(0, 8));
    expect(text).to.contain('PRIVATE-TOKEN: [redacted]');
  });

  it('writes the same records without bunyan (the CLI installed alone): levels, children, fields, secrets', () => {
    const calls = (logger: ReturnType<typeof createLogger>) => {
      logger.debug('not written at info');
      logger.info('started', { port: 8000 });
      const jobs = logger.child('jobs', { job_id: 'abc', port: 1 });
      jobs.warn('slow', { duration_ms: 1500.4, port: 2 });
      jobs.child('git').error('clone failed with s3cret-token', { url: 'https://user:pw@example.test/x.git' });
      logger.fatal('stopping');
    };
    const lines = (bunyan: boolean) => {
      const out = capture();
      calls(createLogger({ level: 'info', stream: out.stream, secrets: ['s3cret-token'], bunyan }));
      return out.lines().map(({ timestamp, ...rest }) => {
        expect(new Date(String(timestamp)).toISOString()).to.equal(timestamp);
        return rest;
      });
    };
    const withBunyan = lines(true);
    expect(withBunyan).to.have.length(4);
    expect(withBunyan[2]).to.include({ component: 'git', level: 'error', job_id: 'abc' });
    expect(JSON.stringify(withBunyan)).to.not.contain('s3cret-token').and.not.contain('pw@');
    expect(lines(false)).to.deep.equal(withBunyan);
  });

  it('loads bunyan at the first record that passes the level, not at import (a command that logs nothing never loads it)', () => {
    // A process of its own: this one may have loaded bunyan already.
    const logger = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const { createLogger } = await import(${JSON.stringify(logger)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/bunyan/'));
      const lines = [];
      const log = createLogger({ level: 'warn', stream: { write: (line) => lines.push(line) } });
      const child = log.child('jobs', { job_id: 'abc' });
      child.info('below the level');
      const beforeWarn = loaded();
      child.warn('written');
      console.log(JSON.stringify({ beforeWarn, afterWarn: loaded(), lines }));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    });
    const seen = JSON.parse(out) as { beforeWarn: boolean; afterWarn: boolean; lines: string[] };
    expect(seen.beforeWarn, 'bunyan loaded before any record was written').to.equal(false);
    expect(seen.afterWarn, 'bunyan writes the first record').to.equal(true);
    expect(seen.lines).to.have.length(1);
    expect(JSON.parse(seen.lines[0]!)).to.include({
      level: 'warn',
      component: 'jobs',
      job_id: 'abc',
      message: 'written',
    });
  });
});
