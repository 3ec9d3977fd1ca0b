// ESLint (flat config) with typescript-eslint: the recommended rules everywhere, and on the
// product's sources the type-aware ones a promise-heavy server needs most (a promise nobody
// awaits or handles, a promise passed where a callback's result is ignored).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  {
    files: ['packages/*/src/**/*.ts', 'plugins/*/src/**/*.ts', 'host/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
);
