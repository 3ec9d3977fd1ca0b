import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The tests' type check reads each package's built declarations through project references
 * (docs/architecture.md). tsconfig.json cannot be referenced itself (it is no composite project), so
 * tsconfig.tests.json lists the same projects: a package added to one and not the other would have
 * its sources checked again, or its tests read stale types.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function references(file: string): string[] {
  const config = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as { references?: { path: string }[] };
  return (config.references ?? []).map((reference) => reference.path);
}

describe("the tests' type check", () => {
  it('references every project tsconfig.json builds, but the browser scripts (not composite: checked as sources)', () => {
    const built = references('tsconfig.json').filter((project) => !project.endsWith('/browser'));
    expect(references('tsconfig.tests.json')).to.have.members(built);
  });
});
