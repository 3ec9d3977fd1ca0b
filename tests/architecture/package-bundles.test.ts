import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFilesUnder } from './source-files.js';

/**
 * Packages load as bundles (docs/architecture.md, scripts/bundle-packages.mjs): every published
 * package's JavaScript entries name `dist/*.bundle.js`, and a module that finds a file from
 * `import.meta.url` is a top-level one, since a bundle sits where tsc writes those.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: Record<string, { default?: string }>;
}

function workspacePackages(): { dir: string; manifest: Manifest }[] {
  return ['packages', 'plugins']
    .flatMap((group) => readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name)))
    .concat(path.join(ROOT, 'host'))
    .filter((dir) => existsSync(path.join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest }));
}

/** The lines of `text` that read `import.meta.url`. */
export function fileAnchors(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (/import\.meta\.(url|dirname|filename)\b/.test(line) && !/^\s*(\/\/|\*)/.test(line)) lines.push(index + 1);
  });
  return lines;
}

describe('packages load as bundles', () => {
  const published = workspacePackages().filter((p) => !p.manifest.private && p.manifest.exports);

  it('every published package’s JavaScript entries are bundles', () => {
    expect(published.length).to.be.above(20);
    const unbundled = published.flatMap(({ manifest }) =>
      Object.entries(manifest.exports ?? {})
        .map(([key, target]) => [key, target.default ?? ''] as const)
        .filter(([, target]) => target.endsWith('.js') && !target.endsWith('.bundle.js'))
        .map(([key, target]) => `${manifest.name} ${key}: ${target}`),
    );
    expect(unbundled).to.deep.equal([]);
  });

  it('finds a file from import.meta.url only in a top-level module of a bundled package', () => {
    expect(
      fileAnchors("const f = new URL('../model/x.bin', import.meta.url);\n// import.meta.url in a comment"),
    ).to.deep.equal([1]);
    const nested = published.flatMap(({ dir }) =>
      sourceFilesUnder(path.join(dir, 'src'))
        .filter((file) => path.dirname(file) !== path.join(dir, 'src'))
        .flatMap((file) =>
          fileAnchors(readFileSync(file, 'utf8')).map((line) => `${path.relative(ROOT, file)}:${line}`),
        ),
    );
    expect(nested).to.deep.equal([]);
  });

  it('a build that changes nothing rewrites and removes no bundle (the release check builds while other runs load them)', () => {
    const files = (): Map<string, string> =>
      new Map(
        published.flatMap(({ dir }) =>
          readdirSync(path.join(dir, 'dist'))
            .filter((name) => /\.bundle\.js$|^chunk-[A-Z0-9]+\.js$/.test(name))
            .map((name) => {
              const stat = statSync(path.join(dir, 'dist', name));
              return [path.join(dir, 'dist', name), `${stat.ino}:${stat.mtimeMs}`] as const;
            }),
        ),
      );
    const before = files();
    expect(before.size).to.be.above(published.length);
    const bundled = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-packages.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(bundled.status, bundled.stderr).to.equal(0);
    expect(files()).to.deep.equal(before);
  });
});
