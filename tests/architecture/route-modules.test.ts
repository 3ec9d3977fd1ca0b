import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const routes = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../packages/server/src/routes');
/** What route modules share (the module type, the page sender, a path parameter's reader): no routes of their own. */
const SHARED = ['route-module.ts', 'send-page.ts', 'path-parameter.ts'];
const modules = readdirSync(routes).filter((name) => name.endsWith('.ts') && !SHARED.includes(name));
const source = (name: string): string => readFileSync(path.join(routes, name), 'utf8');

describe('architecture: route modules see what they use', () => {
  it('finds the route modules', () => {
    expect(modules).to.include.members([
      'analyze.ts',
      'dashboard.ts',
      'jobs.ts',
      'operations.ts',
      'streams.ts',
      'webhooks.ts',
    ]);
  });

  for (const name of modules)
    it(`${name} names the parts of the server it uses (RegisterRoutes<...>), not all of them`, () => {
      const declared = /export const register: RegisterRoutes<([^>]+)>/.exec(source(name));
      expect(declared, 'register: RegisterRoutes<the parts it uses>').to.not.equal(null);
      const uses = declared![1]!.split('|').map((part) => part.trim().replace(/'/g, ''));
      expect(uses).to.not.include.members([
        'config',
        'engine',
        'logger',
        'backends',
        'jobs',
        'scans',
        'metrics',
        'cache',
        'guards',
      ]);
    });

  it('sends HTML pages one way: only sendPage sets a page\u2019s security headers', () => {
    for (const name of modules)
      expect(source(name), name).to.not.match(/\.set\(\s*'(?:Content-Security-Policy|X-Frame-Options)'/);
  });
});

describe('architecture: the job manager is the one writer of job records', () => {
  const server = path.resolve(routes, '..');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sources(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );

  it('no module outside jobs/ (and the stores behind it) creates, updates or deletes a record, or publishes an event', () => {
    const writers = sources(server)
      .filter(
        (file) => !file.includes(`${path.sep}jobs${path.sep}`) && !file.includes(`${path.sep}backends${path.sep}`),
      )
      .filter((file) => /\bstore\.(?:create|update|delete)\(|\bevents\.publish\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(server, file));
    expect(writers).to.deep.equal([]);
  });
});
