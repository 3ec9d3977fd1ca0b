import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHttpServer } from './http-server.js';

export interface RegistryPackage {
  readonly name: string;
  readonly version: string;
  /** The package's files, relative to its folder (package.json included); files under bin/ are made executable. */
  readonly files: Readonly<Record<string, string>>;
}

export interface NpmRegistry {
  /** The registry's address, ending in a slash (what an .npmrc's `registry=` takes). */
  readonly url: string;
  /** Every request's method and path, in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** A package's files as npm's tarball: gzipped tar with everything under `package/`. */
async function tarball(files: Readonly<Record<string, string>>): Promise<Buffer> {
  const folder = await mkdtemp(path.join(tmpdir(), 'cadence-registry-pack-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(folder, 'package', name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      if (name.startsWith('bin/')) await chmod(file, 0o755);
    }
    const out = path.join(folder, 'package.tgz');
    await new Promise<void>((resolve, reject) => {
      const child = spawn('tar', ['-czf', out, '-C', folder, 'package'], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
    });
    return await readFile(out);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A real npm registry on loopback (the packument and tarball routes npm asks for), serving the
 * given packages and recording every request: a registry a test can name in an .npmrc and then
 * ask whether npm came to it.
 */
export async function startNpmRegistry(packages: readonly RegistryPackage[], host = '127.0.0.1'): Promise<NpmRegistry> {
  const tarballs = new Map<string, Buffer>();
  const documents = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  const server = await startHttpServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const url = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    const body = tarballs.get(url);
    if (body) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      response.end(body);
      return;
    }
    const document = documents.get(url.slice(1));
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(document ?? { error: 'not found' }));
  }, host);
  for (const p of packages) {
    const body = await tarball(p.files);
    const file = `/${p.name}/-/${p.name.split('/').pop()}-${p.version}.tgz`;
    tarballs.set(file, body);
    const manifest = JSON.parse(p.files['package.json'] ?? '{}') as Record<string, unknown>;
    const document = documents.get(p.name) ?? { name: p.name, 'dist-tags': {}, versions: {} };
    (document['dist-tags'] as Record<string, string>).latest = p.version;
    (document.versions as Record<string, unknown>)[p.version] = {
      ...manifest,
      name: p.name,
      version: p.version,
      dist: {
        tarball: server.url(file),
        integrity: `sha512-${createHash('sha512').update(body).digest('base64')}`,
        shasum: createHash('sha1').update(body).digest('hex'),
      },
    };
    documents.set(p.name, document);
  }
  return { url: server.url('/'), requests, close: () => server.close() };
}
