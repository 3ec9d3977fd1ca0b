import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** Every source folder of the workspace: each package's and plugin's `src`, and the host's. */
function sourceRoots(): string[] {
  const under = (folder: string): string[] =>
    readdirSync(path.join(root, folder)).map((name) => path.join(root, folder, name, 'src'));
  return [...under('packages'), ...under('plugins'), path.join(root, 'host', 'src')].filter((dir) => {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false;
    }
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * A module's relative imports that load code: `import type` and `export type` are erased and
 * cannot make a cycle at run time. (`import { a, type B }` still loads its module.)
 */
function runtimeImports(file: string, text: string): string[] {
  const from = /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/g;
  // `import './x.js'` loads its module for its effects alone.
  const bare = /(?:^|\n)\s*import\s+'(\.{1,2}\/[^']+)'/g;
  return [...text.matchAll(from), ...text.matchAll(bare)].map((match) =>
    path.join(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')),
  );
}

/** The cycles of a module graph, each as the modules around it. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (module: string): void => {
    state.set(module, 'open');
    stack.push(module);
    for (const next of graph.get(module) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(module, 'done');
  };
  for (const module of graph.keys()) if (!state.has(module)) visit(module);
  return cycles;
}

describe('architecture: no module imports itself back', () => {
  it('finds a cycle where there is one (the check can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cyclesOf(graph)).to.deep.equal([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(
      runtimeImports(
        '/x/a.ts',
        "import type { B } from './b.js';\nimport { c, type C } from './c.js';\nimport './d.js';",
      ),
    ).to.deep.equal(['/x/c.ts', '/x/d.ts']);
  });

  it('has no cycle of runtime imports in any package, plugin or the host: shared parts live below both users', () => {
    const found: string[] = [];
    for (const dir of sourceRoots()) {
      const graph = new Map<string, string[]>();
      for (const file of sourceFiles(dir)) graph.set(file, runtimeImports(file, readFileSync(file, 'utf8')));
      for (const cycle of cyclesOf(graph))
        found.push(`${path.relative(root, dir)}: ${cycle.map((m) => path.relative(dir, m)).join(' -> ')}`);
    }
    expect(found).to.deep.equal([]);
  });
});
