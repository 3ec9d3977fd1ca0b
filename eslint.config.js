// ESLint (flat config) with typescript-eslint: the recommended rules everywhere, and on the
// product's sources the type-aware ones a promise-heavy server needs most (a promise nobody
// awaits or handles, a promise passed where a callback's result is ignored).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';

const SOURCES = ['packages/*/src/**/*.ts', 'plugins/*/src/**/*.ts', 'host/src/**/*.ts'];
/** Test fixtures: held by the recommended rules, not the strict ones. */
const TEST_CODE = ['packages/test-support/**'];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '.ci/**', 'bench/corpus/data/**', 'bench/pages/data/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        document: 'readonly',
        window: 'readonly',
        navigator: 'readonly',
        globalThis: 'readonly',
        crypto: 'readonly',
      },
    },
    rules: {
      // Unused values are the compiler's to report (noUnusedLocals); an `_`-named parameter is meant.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // chai's property assertions (`expect(x).to.be.true`) are expressions by design.
    files: ['**/test/**/*.ts', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // Functions of one job each, as the engine's pipeline is in stages. test-support is test code.
    files: ['packages/*/src/**/*.ts', 'plugins/*/src/**/*.ts', 'host/src/**/*.ts'],
    ignores: ['packages/test-support/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 30],
    },
  },
  // The product's sources: typescript-eslint's strict, type-aware rules, with the choices below.
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: SOURCES, ignores: TEST_CODE })),
  {
    files: SOURCES,
    languageOptions: { parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
  {
    files: SOURCES,
    ignores: TEST_CODE,
    rules: {
      // Numbers and booleans read plainly in a message; objects, null and undefined still do not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `() => void call()` and `(x) => list.push(x)` as callbacks are the usual shorthand.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // An async function without await keeps a throw a rejection, and an interface's method a promise.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // An exception to a rule in the product's sources says why on its own line (`-- reason`).
    files: SOURCES,
    ignores: TEST_CODE,
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: { '@eslint-community/eslint-comments/require-description': 'error' },
  },
  {
    // Index arithmetic over arrays the loop's own bounds keep in range: the line pass's diff and
    // ledger replay (run per line of a whole history, where a checked read, `itemAt`, would be a
    // call on every line) and the models' dense vectors (weights, means and a commit's features
    // have one length by construction). Everywhere else a possibly missing value is handled.
    files: [
      'packages/git-source/src/{line-diff,copy-sites,line-replay,ledger-texts,ledger-state,ledger-merges,commit-replay,merge-replay}.ts',
      'plugins/commit-model/src/{features,hashed-tokens}.ts',
      'plugins/website-signature/src/page-model.ts',
    ],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
