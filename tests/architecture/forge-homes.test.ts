import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceFilesUnder } from './source-files.js';

/**
 * A forge is one package, its CI included (docs/forges.md, Adding a forge): the host and the
 * engine never import a forge plugin, and never name a CI system's variables; `cadence ci <forge>`
 * finds the forge plugin's runner by name.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NEUTRAL = ['host/src', 'packages/engine/src'];
/** The variables CI systems set: a forge's runner reads them, nothing forge-neutral does. */
const CI_VARIABLE = /\b(?:GITHUB|CI|BITBUCKET|GITEA|FORGEJO|GITLAB|INPUT)_[A-Z][A-Z0-9_]*/g;

/** The workspace's forge plugins (the `cadence-forge` keyword): package name and folder. */
function forgePlugins(): { name: string; dir: string }[] {
  const plugins = path.join(ROOT, 'plugins');
  return readdirSync(plugins)
    .map((name) => path.join(plugins, name))
    .filter((dir) => statSync(path.join(dir, 'package.json'), { throwIfNoEntry: false }))
    .map((dir) => ({
      dir,
      ...(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; keywords?: string[] }),
    }))
    .filter((manifest) => manifest.keywords?.includes('cadence-forge'))
    .map(({ name, dir }) => ({ name, dir }));
}

/** What in `text` breaks the rule: an import of a forge package, or a CI variable's name. */
export function forgeCoupling(text: string, forges: readonly string[]): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](@[\w-]+\/[\w-]+)/g))
    if (forges.includes(match[1]!)) found.push(`imports ${match[1]}`);
  // Named without an import (a list of packages to install, to load): the host would know the forges.
  for (const forge of forges)
    if (!found.includes(`imports ${forge}`) && (text.includes(`'${forge}'`) || text.includes(`"${forge}"`)))
      found.push(`names ${forge}`);
  for (const match of text.matchAll(CI_VARIABLE)) found.push(`names ${match[0]}`);
  return found;
}

describe('architecture: each forge whole in its plugin', () => {
  const plugins = forgePlugins();
  const forges = plugins.map((p) => p.name);

  it('knows the forge plugins, and the check finds an import and a variable (it can fail)', () => {
    expect(forges).to.include.members(['@cadence-detect/plugin-github', '@cadence-detect/plugin-gitlab']);
    expect(
      forgeCoupling(
        "const { x } = await import('@cadence-detect/plugin-gitlab');\nconst base = env.CI_MERGE_REQUEST_DIFF_BASE_SHA;",
        forges,
      ),
    ).to.deep.equal(['imports @cadence-detect/plugin-gitlab', 'names CI_MERGE_REQUEST_DIFF_BASE_SHA']);
    expect(forgeCoupling("import { x } from '@cadence-detect/forge-kit'; // CI job", forges)).to.deep.equal([]);
    expect(forgeCoupling("const OPTIONAL = ['@cadence-detect/plugin-gitea'];", forges)).to.deep.equal([
      'names @cadence-detect/plugin-gitea',
    ]);
  });

  it('the host and the engine import or name no forge plugin and name no CI variable', () => {
    const coupled: string[] = [];
    for (const dir of NEUTRAL)
      for (const file of sourceFilesUnder(path.join(ROOT, dir)))
        for (const finding of forgeCoupling(readFileSync(file, 'utf8'), forges))
          coupled.push(`${path.relative(ROOT, file)} ${finding}`);
    expect(coupled).to.deep.equal([]);
  });

  it('every forge plugin brings its CI runner', async () => {
    const without: string[] = [];
    for (const { name, dir } of plugins) {
      const entry = pathToFileURL(path.join(dir, 'dist', 'index.js')).href;
      const plugin = ((await import(entry)) as { default: { forge?: { ci?: { run?: unknown } } } }).default;
      if (typeof plugin.forge?.ci?.run !== 'function') without.push(name);
    }
    expect(without).to.deep.equal([]);
  });
});
