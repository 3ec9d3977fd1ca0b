import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const routes = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../packages/server/src/routes');
const modules = readdirSync(routes).filter(
  (name) => name.endsWith('.ts') && !['route-module.ts', 'send-page.ts'].includes(name),
);
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
