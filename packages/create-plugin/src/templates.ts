import { PLUGIN_SDK_VERSION, PLUGIN_TESTKIT_VERSION } from './versions.js';

// Named here rather than written into the templates: the new plugin imports them, this package does not.
const SDK = '@cadence-detect/plugin-sdk';
const TESTKIT = '@cadence-detect/plugin-testkit';

/** What the templates are written for: the package's name and the plugin's (also its strategy's). */
export interface StarterNames {
  /** The npm package, e.g. `cadence-plugin-big-commits` or `@acme/cadence-plugin-big-commits`. */
  readonly packageName: string;
  /** The plugin's and its strategy's name, e.g. `big-commits`. */
  readonly pluginName: string;
}

/** Every file of a new plugin package, by its path in the package. */
export function starterFiles(names: StarterNames): Record<string, string> {
  return {
    'package.json': `${JSON.stringify(packageJson(names), null, 2)}\n`,
    'index.js': INDEX,
    'src/plugin.js': plugin(names),
    [`test/${names.pluginName}.test.ts`]: test(names),
    'tsconfig.json': TSCONFIG,
    'README.md': readme(names),
    '.gitignore': 'node_modules/\n',
  };
}

function packageJson({ packageName, pluginName }: StarterNames): Record<string, unknown> {
  const sdk = `^${PLUGIN_SDK_VERSION}`;
  return {
    name: packageName,
    version: '0.1.0',
    description: `A Cadence strategy plugin: ${pluginName}.`,
    type: 'module',
    license: 'MIT',
    // How `cadence plugins` and the registry's search find it.
    keywords: ['cadence-plugin'],
    engines: { node: '>=20.19' },
    exports: { '.': './index.js' },
    files: ['index.js', 'src', 'README.md'],
    scripts: {
      test: "mocha --import=tsx --extension ts 'test/**/*.test.ts'",
      typecheck: 'tsc -p tsconfig.json',
    },
    // The host brings the SDK: a plugin that bundled its own would see a second, separate API.
    peerDependencies: { [SDK]: sdk },
    devDependencies: {
      [SDK]: sdk,
      [TESTKIT]: `^${PLUGIN_TESTKIT_VERSION}`,
      '@types/chai': '^5.2.3',
      '@types/mocha': '^10.0.10',
      '@types/node': '^20.19.0',
      chai: '^6.2.0',
      mocha: '^11.7.0',
      tsx: '^4.20.0',
      typescript: '~5.9.3',
    },
  };
}

const INDEX = `// The published entry: plain ESM JavaScript, so the plugin needs no build step.
export { default, strategy, OPTIONS } from './src/plugin.js';
`;

function plugin({ pluginName }: StarterNames): string {
  return `import { Type } from '${SDK}/typebox';
import { definePlugin, defineStrategy } from '${SDK}';

/**
 * The plugin's options: a TypeBox schema (the SDK's one-module copy: it loads fast) the host checks, with its defaults applied. Users set them
 * as \`plugin_options: { ${pluginName}: { max_additions: 800 } }\`, or in the environment as
 * CADENCE_PLUGIN_${pluginName.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_MAX_ADDITIONS. In a
 * strategy declared with it, \`context.options\` has its type (checkJs).
 */
export const OPTIONS = Type.Object(
  {
    max_additions: Type.Integer({ minimum: 1, default: 500 }),
  },
  { additionalProperties: false },
);

export const strategy = defineStrategy(OPTIONS, {
  meta: {
    name: '${pluginName}',
    category: 'size',
    description: 'Commits that add more than max_additions lines at once.',
    appliesTo: 'repository',
    weight: 0.5,
    // Findings name a message by id with its data: tests and reports key on the id, not the words.
    messages: { tooLarge: '{{additions}} lines added in one commit (more than {{max}})' },
  },
  analyze(context) {
    const max = context.options.max_additions;
    return context.commits
      .filter((commit) => !commit.isMerge && commit.parents.length > 0 && commit.additions > max)
      .map((commit) => ({
        commit: commit.hash,
        // Twice the limit is as strong as this evidence gets.
        score: Math.min(1, 0.5 + 0.5 * (commit.additions / max - 1)),
        messageId: 'tooLarge',
        data: { additions: commit.additions, max },
      }));
  },
});

export default definePlugin({
  name: '${pluginName}',
  meta: { description: 'Commits that add many lines at once.', options: OPTIONS },
  apply(hooks) {
    hooks.registerStrategies.tap('${pluginName}', (registrar) => registrar.add(strategy));
  },
});
`;
}

function test({ pluginName }: StarterNames): string {
  return `import { makeCommits, testStrategy } from '${TESTKIT}';
import plugin from '../index.js';

const T0 = Date.parse('2025-02-03T10:00:00Z') / 1000;
const commits = (...additions: number[]) =>
  makeCommits(additions.map((added, i) => ({ at: T0 + i * 3600, additions: added })));

const large = commits(40, 900, 30);

// One table of cases, run through the real engine: where the strategy must find nothing, and what it must find.
testStrategy('${pluginName}', plugin, {
  valid: [
    { name: 'commits under the limit', source: { commits: commits(40, 120, 300) } },
    { name: 'a larger limit from the options', source: { commits: large }, run: { options: { max_additions: 1000 } } },
  ],
  invalid: [
    {
      name: 'a commit of 900 added lines',
      source: { commits: large },
      detections: [{ commit: large[1]!.hash, messageId: 'tooLarge', message: '900 lines added in one commit (more than 500)' }],
    },
  ],
});
`;
}

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      allowJs: true,
      checkJs: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node', 'mocha'],
    },
    include: ['index.js', 'src/**/*.js', 'test/**/*.ts'],
  },
  null,
  2,
)}\n`;

function readme({ packageName, pluginName }: StarterNames): string {
  return `# ${packageName}

A [Cadence](https://www.npmjs.com/package/@cadence-detect/cli) strategy plugin: \`${pluginName}\` flags
commits that add more than \`max_additions\` lines (500 unless set).

## Use

\`\`\`sh
npm install ${packageName}
\`\`\`

and name it in the configuration Cadence reads (a file you choose with \`--config\`, or your user
configuration; a repository's \`.cadence.yaml\` never loads plugins):

\`\`\`yaml
plugins: [${packageName}]
plugin_options:
  ${pluginName}:
    max_additions: 800
\`\`\`

\`cadence plugins\` lists it with its strategy.

## Develop

\`\`\`sh
npm install
npm test           # the testkit's table of cases, through the real engine
npm run typecheck  # the plugin is JavaScript checked by TypeScript (checkJs)
\`\`\`

Publish with \`npm publish\`: the \`cadence-plugin\` keyword lets people find it.
`;
}
