import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** Names the docs may tell users to fetch from the public registry that are not ours: each has a known owner. */
const WELL_KNOWN = new Set(['pnpm']);
const OUR_SCOPE = '@cadence-detect/';

/** The Markdown files users read: README, docs/, the example's README. */
async function userDocs(): Promise<string[]> {
  const docs = (await readdir(path.join(root, 'docs')))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', ...docs, 'examples/cadence-plugin-file-drops/README.md'];
}

/** The code in a Markdown text: fenced blocks, indented blocks and code spans (which may wrap lines). */
function codeIn(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const rest = markdown.replace(/```[^\n]*\n[\s\S]*?```/g, '');
  const indented = rest.split('\n').filter((line) => /^( {4}|\t)\S/.test(line));
  const spans = [...rest.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' '));
  return [...fenced.flatMap((block) => block.split('\n')), ...indented, ...spans];
}

/**
 * The package names a command line would fetch: `npm install|i|add`, `pnpm add`, `yarn add` and
 * `npx` (whose first name is what it runs). Flags, paths, files and placeholders are not names;
 * `npx --no` never fetches.
 */
function fetchedNames(line: string): string[] {
  const names: string[] = [];
  for (const match of line.matchAll(/\b(npm (?:install|i|add)|pnpm add|yarn add|npx)\b([^&;|#\n]*)/g)) {
    const words = match[2]!
      .replace(/<[^>]*>/g, ' ')
      .trim()
      .split(/\s+/)
      // A shell word's quotes are not part of it; a redirection is no name.
      .map((w) => w.replace(/^(["'])(.*)\1$/, '$2'))
      .filter((w) => w && !/^\d*[<>]/.test(w));
    if (match[1] === 'npx' && words.includes('--no')) continue;
    // A flag's value (`--registry <url>`, `--prefix <dir>`) and a URL are not names.
    const specs = words.filter(
      (w, i) =>
        !/^[-./<$~]/.test(w) &&
        !w.endsWith('.tgz') &&
        !w.includes('://') &&
        !/^--(registry|prefix|cache)$/.test(words[i - 1] ?? ''),
    );
    const taken = match[1] === 'npx' ? specs.slice(0, 1) : specs;
    for (const spec of taken)
      names.push(spec.startsWith('@') ? spec.split('@').slice(0, 2).join('@') : spec.split('@')[0]!);
  }
  return names;
}

/**
 * Every package name the docs tell a user to install or run is ours (the @cadence-detect scope,
 * which only this project can publish under) or a well-known tool's: an unscoped name nobody owns
 * could be published by anyone, and the user would run it.
 */
describe('the names the docs tell users to install', () => {
  it('are all under @cadence-detect/ or a well-known tool (an unowned name is anyone\u2019s to publish)', async () => {
    const found: string[] = [];
    const unowned: string[] = [];
    for (const file of await userDocs()) {
      for (const line of codeIn(await readFile(path.join(root, file), 'utf8'))) {
        for (const name of fetchedNames(line)) {
          found.push(name);
          if (!name.startsWith(OUR_SCOPE) && !WELL_KNOWN.has(name))
            unowned.push(`${file}: ${name} (in \`${line.trim().slice(0, 100)}\`)`);
        }
      }
    }
    expect(found, 'the check found the install commands').to.include('@cadence-detect/cli');
    expect(unowned).to.deep.equal([]);
  });

  it('the check itself: finds a bare name in a wrapped code span, skips paths, files, placeholders and npx --no', () => {
    expect(codeIn('run `npm install -g\n  cadence-plugin-x` now')).to.include('npm install -g cadence-plugin-x');
    expect(fetchedNames('npm install -g cadence-plugin-x')).to.deep.equal(['cadence-plugin-x']);
    expect(fetchedNames('npm install --save-dev @cadence-detect/cli@1.2.0 left-pad@^1')).to.deep.equal([
      '@cadence-detect/cli',
      'left-pad',
    ]);
    expect(fetchedNames('npx cadence analyze .')).to.deep.equal(['cadence']);
    expect(fetchedNames(`npm install --prefix "$dir" --ignore-scripts "left-pad@^1" 'is-odd' >&2`)).to.deep.equal([
      'left-pad',
      'is-odd',
    ]);
    expect(fetchedNames('npx --no cadence analyze .')).to.deep.equal([]);
    expect(fetchedNames('npm install -g ./x-1.0.0.tgz && npm install <plugin package>')).to.deep.equal([]);
    expect(fetchedNames('npx --registry http://127.0.0.1:4873/ @cadence-detect/cli analyze .')).to.deep.equal([
      '@cadence-detect/cli',
    ]);
    expect(fetchedNames('npm install -g left-pad --registry https://registry.example.test/')).to.deep.equal([
      'left-pad',
    ]);
  });
});
