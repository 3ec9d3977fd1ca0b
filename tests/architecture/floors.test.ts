import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFilesUnder } from './source-files.js';

/**
 * The packages by floor (docs/architecture.md): a package may depend only on packages of a lower
 * floor, so the graph has no cycle and a newcomer can tell from the floor where a change belongs.
 * Plugins stand beside the floors: they import the plugin SDK alone, as a third party's do.
 */
const FLOORS: Readonly<Record<string, number>> = {
  '@cadence-detect/errors': 0,
  '@cadence-detect/create-plugin': 0,
  '@cadence-detect/plugin-sdk': 1,
  '@cadence-detect/network-guard': 1,
  '@cadence-detect/logger': 1,
  '@cadence-detect/config': 2,
  '@cadence-detect/reports': 2,
  '@cadence-detect/forge-kit': 3,
  '@cadence-detect/plugin-loader': 2,
  '@cadence-detect/git-source': 2,
  '@cadence-detect/web-source': 2,
  '@cadence-detect/engine': 3,
  '@cadence-detect/organization': 3,
  '@cadence-detect/server': 4,
  '@cadence-detect/plugin-testkit': 4,
  '@cadence-detect/cli': 5,
  '@cadence-detect/cadence': 6,
};

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** No source file of the product is longer than this: a file you can name in a few words. */
const MAX_SOURCE_LINES = 400;

interface WorkspacePackage {
  readonly name: string;
  readonly dir: string;
  readonly private: boolean;
  readonly dependencies: readonly string[];
  readonly peers: readonly string[];
}

function workspacePackages(): WorkspacePackage[] {
  const dirs = [
    ...['packages', 'plugins'].flatMap((group) =>
      readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name)),
    ),
    path.join(ROOT, 'host'),
  ];
  return dirs
    .filter((dir) => statSync(path.join(dir, 'package.json'), { throwIfNoEntry: false }))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name: string;
        private?: boolean;
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      return {
        name: manifest.name,
        dir,
        private: manifest.private === true,
        dependencies: Object.keys(manifest.dependencies ?? {}),
        peers: Object.keys(manifest.peerDependencies ?? {}),
      };
    });
}

function sourceFiles(dir: string): string[] {
  return sourceFilesUnder(path.join(dir, 'src'));
}

/** Every `@cadence-detect/…` package a source file imports (static or dynamic). */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](@cadence-detect\/[a-z0-9-]+)/g))
    found.add(match[1]!);
  return [...found];
}

const packages = workspacePackages();
const isPlugin = (p: WorkspacePackage): boolean => p.dir.startsWith(path.join(ROOT, 'plugins'));

describe('architecture: packages by floor', () => {
  it('gives every product package a floor (test-support and private tools aside)', () => {
    const unplaced = packages
      .filter((p) => !isPlugin(p) && !p.private && FLOORS[p.name] === undefined)
      .map((p) => p.name);
    expect(unplaced, 'add it to FLOORS and to docs/architecture.md').to.deep.equal([]);
  });

  it('lets a package depend only on packages of a lower floor', () => {
    const upward: string[] = [];
    for (const p of packages.filter((q) => FLOORS[q.name] !== undefined)) {
      for (const dep of p.dependencies.filter((d) => d.startsWith('@cadence-detect/') && FLOORS[d] !== undefined)) {
        if (FLOORS[dep]! >= FLOORS[p.name]!)
          upward.push(`${p.name} (floor ${FLOORS[p.name]}) -> ${dep} (floor ${FLOORS[dep]})`);
      }
    }
    expect(upward).to.deep.equal([]);
  });

  it('imports in source only what the package declares', () => {
    const undeclared: string[] = [];
    for (const p of packages) {
      for (const file of sourceFiles(p.dir)) {
        for (const imported of importedPackages(file)) {
          if (imported !== p.name && !p.dependencies.includes(imported) && !p.peers.includes(imported))
            undeclared.push(`${path.relative(ROOT, file)} imports ${imported}`);
        }
      }
    }
    expect(undeclared).to.deep.equal([]);
  });

  // The forge helpers are published apart from the contract (@cadence-detect/forge-kit), for any
  // third party's forge plugin as for the built-in ones.
  const PUBLIC_PLUGIN_PACKAGES = new Set(['@cadence-detect/plugin-sdk', '@cadence-detect/forge-kit']);
  it('keeps plugins on the public plugin API and the published forge helpers alone, as a third party\u2019s', () => {
    const reaching: string[] = [];
    for (const p of packages.filter(isPlugin)) {
      for (const file of sourceFiles(p.dir)) {
        for (const imported of importedPackages(file))
          if (!PUBLIC_PLUGIN_PACKAGES.has(imported)) reaching.push(`${path.relative(ROOT, file)} imports ${imported}`);
      }
    }
    expect(reaching).to.deep.equal([]);
  });

  it('imports the forge SDKs (@octokit/*, @gitbeaker/*) only in the forge packages', () => {
    const outside: string[] = [];
    for (const p of packages.filter((q) => !/\/plugins\/forge-[a-z]+$/.test(q.dir))) {
      for (const file of sourceFiles(p.dir)) {
        if (/['"]@(?:octokit|gitbeaker)\//.test(readFileSync(file, 'utf8'))) outside.push(path.relative(ROOT, file));
      }
    }
    expect(outside).to.deep.equal([]);
  });

  it('reads no hook\u2019s taps directly: taps are changed through tapable\u2019s own interceptors', () => {
    const reading: string[] = [];
    for (const p of packages) {
      for (const file of sourceFiles(p.dir)) {
        if (/\.taps\b/.test(readFileSync(file, 'utf8'))) reading.push(path.relative(ROOT, file));
      }
    }
    expect(reading).to.deep.equal([]);
  });

  it('cites the docs users have, never a design document they do not (its sections, \u00a7N)', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f && !f.startsWith('tests/architecture/'));
    const citing = tracked.filter(
      (f) =>
        /\.(?:ts|mts|mjs|js|md|yaml|yml|json)$/.test(f) &&
        /decisions\s*(?:\*\s*)?\u00a7/i.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(citing).to.deep.equal([]);
  });

  it(`has no source file over ${MAX_SOURCE_LINES} lines`, () => {
    const long = packages
      .flatMap((p) => sourceFiles(p.dir))
      .map((file) => ({ file: path.relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > MAX_SOURCE_LINES)
      .map((f) => `${f.file}: ${f.lines}`);
    expect(long).to.deep.equal([]);
  });
});
