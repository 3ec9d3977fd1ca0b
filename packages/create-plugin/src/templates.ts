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
    [`test/${names.pluginName}.test.js`]: test(names),
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
    // The tests are JavaScript too (checked by `typecheck`): mocha runs them as they are, with no
    // TypeScript loader to install (and no build step's install script).
    scripts: {
      test: "mocha 'test/**/*.test.js'",
      typecheck: 'tsc -p tsconfig.json',
    },
    // The host brings the SDK: a plugin that bundled its own would see a second, separate API.
    peerDependencies: { [SDK]: sdk },
    devDependencies: {
      [SDK]: sdk,
      [TESTKIT]: `^${PLUGIN_TESTKIT_VERSION}`,
      '@types/mocha': '^10.0.10',
      '@types/node': '^20.19.0',
      mocha: '^11.7.0',
      typescript: '~7.0.2',
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
 * as \`plugin_options: { ${pluginName}: { max_binary_files: 50 } }\`, or in the environment as
 * CADENCE_PLUGIN_${pluginName.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}_MAX_BINARY_FILES. In a
 * strategy declared with it, \`context.options\` has its type (checkJs).
 */
export const OPTIONS = Type.Object(
  {
    max_binary_files: Type.Integer({ minimum: 1, default: 20 }),
  },
  { additionalProperties: false },
);

/**
 * Binary files count no line, so no line-based strategy sees a commit that drops many of them.
 * @param {import('${SDK}').CommitRecord} commit
 */
const binaryFiles = (commit) => commit.files.filter((file) => file.binary && !file.excluded).length;

export const strategy = defineStrategy(OPTIONS, {
  meta: {
    name: '${pluginName}',
    category: 'content',
    description: 'Commits that add or change more than max_binary_files binary files at once.',
    appliesTo: 'repository',
    // A weak signal: once installed, a plugin's strategies count in every analysis (README).
    weight: 0.2,
    // Findings name a message by id with its data: tests and reports key on the id, not the words.
    messages: { manyBinaries: '{{count}} binary files in one commit (more than {{max}})' },
  },
  analyze(context) {
    const max = context.options.max_binary_files;
    return context.commits
      .filter((commit) => !commit.isMerge && binaryFiles(commit) > max)
      .map((commit) => ({
        commit: commit.hash,
        // Twice the limit is as strong as this evidence gets.
        score: Math.min(1, 0.5 + 0.5 * (binaryFiles(commit) / max - 1)),
        messageId: 'manyBinaries',
        data: { count: binaryFiles(commit), max },
      }));
  },
});

export default definePlugin({
  name: '${pluginName}',
  meta: { description: 'Commits that drop many binary files at once.', options: OPTIONS },
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
/** @param {string} path @param {boolean} binary */
const file = (path, binary) => ({ path, additions: binary ? 0 : 5, deletions: 0, binary, excluded: false });
/** One commit per count: a README line and that many binary images. @param {number[]} binaries */
const commits = (...binaries) =>
  makeCommits(
    binaries.map((count, i) => ({
      at: T0 + i * 3600,
      additions: 5,
      files: [file('README.md', false), ...Array.from({ length: count }, (_, n) => file(\`assets/image-\${n}.png\`, true))],
    })),
  );

const dropped = commits(2, 30, 5);

// One table of cases, run through the real engine: where the strategy must find nothing, and what it must find.
// The arguments: the strategy's name, the plugin that registers it (not the strategy object), the cases.
testStrategy('${pluginName}', plugin, {
  valid: [
    { name: 'commits under the limit', source: { commits: commits(0, 12, 20) } },
    { name: 'a larger limit from the options', source: { commits: dropped }, run: { options: { max_binary_files: 50 } } },
  ],
  invalid: [
    {
      name: 'a commit of 30 binary files',
      source: { commits: dropped },
      detections: [
        { commit: dropped[1]?.hash, messageId: 'manyBinaries', message: '30 binary files in one commit (more than 20)' },
      ],
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
    include: ['index.js', 'src/**/*.js', 'test/**/*.js'],
  },
  null,
  2,
)}\n`;

function readme({ packageName, pluginName }: StarterNames): string {
  return `# ${packageName}

A [Cadence](https://www.npmjs.com/package/@cadence-detect/cli) strategy plugin: \`${pluginName}\` flags
commits that add or change more than \`max_binary_files\` binary files at once (20 unless set):
binary files count no line, so no built-in strategy sees them.

## Use

Install it where \`cadence\` is installed, never in the folder you analyze:

\`\`\`sh
npm install -g ${packageName}            # beside a global cadence (npm install -g @cadence-detect/cadence)
npm install --save-dev ${packageName}    # or beside cadence in a project (npx --no cadence …)
\`\`\`

Its \`cadence-plugin\` keyword is enough: Cadence discovers it there, and **its strategy counts in every
analysis from then on** (it adds its evidence to each commit's score). \`cadence plugins\` lists it
with its strategy. To keep it installed but not counted, list the strategy in your configuration:

\`\`\`yaml
strategies:
  disabled: [${pluginName}]
\`\`\`

Its options go in your user configuration (\`~/.config/cadence/config.yaml\`) or a file you give
with \`--config\` (a repository's \`.cadence.yaml\` never configures plugins):

\`\`\`yaml
plugin_options:
  ${pluginName}:
    max_binary_files: 50
\`\`\`

You may also name it there under \`plugins: [${packageName}]\`: a name resolves from that file's
folder, then from where \`cadence\` is installed.

## Develop

\`\`\`sh
npm install
npm test           # the testkit's table of cases, through the real engine
npm run typecheck  # the plugin and its tests are JavaScript checked by TypeScript (checkJs)
\`\`\`

Publish with \`npm publish\`: the \`cadence-plugin\` keyword lets people find it.
`;
}
