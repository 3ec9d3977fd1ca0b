import assert from 'node:assert/strict';
import { isRecord } from '@cadence-detect/errors';
import type { CadencePlugin, Detection, Severity } from '@cadence-detect/plugin-sdk';
import { runPlugin, type RunOptions, type TestSource } from './run-plugin.js';

/** A source on which the strategy must find nothing. */
export interface ValidCase {
  readonly name?: string;
  readonly source: TestSource;
  /** Thresholds, options, plugins alongside… as runPlugin takes them. */
  readonly run?: RunOptions;
}

/** What one expected detection must say; fields left out are not checked. */
export interface ExpectedDetection {
  /** The full hash of the commit it is about. */
  readonly commit?: string;
  readonly element?: string;
  /** The exact message, or a pattern it must match. */
  readonly message?: string | RegExp;
  /**
   * The id of the strategy's message (`meta.messages`): a test that survives rewording.
   * @since 1.11
   */
  readonly messageId?: string;
  readonly severity?: Severity;
}

/** A source on which the strategy must find exactly these detections, in this order. */
export interface InvalidCase extends ValidCase {
  readonly detections: readonly ExpectedDetection[];
}

/** The test runner's functions: mocha's (or any runner's) global describe/it unless given. */
export type TestFunctions = {
  describe: (name: string, body: () => void) => void;
  it: (name: string, body: () => Promise<void>) => void;
};

/**
 * Table-driven tests of one strategy, in the spirit of ESLint's RuleTester: `valid` sources where it
 * must find nothing, `invalid` ones with the detections it must make. Each case runs the plugin
 * through the real engine (runPlugin) and becomes a test of the runner in use (mocha's describe/it).
 */
export function testStrategy(
  strategy: string,
  plugin: CadencePlugin,
  cases: { valid?: readonly ValidCase[]; invalid?: readonly InvalidCase[] },
  runner: TestFunctions = testFunctions(),
): void {
  checkArguments(strategy, plugin, cases, runner);
  const { describe, it } = runner;
  describe(strategy, () => {
    (cases.valid ?? []).forEach((entry, index) => {
      it(entry.name ?? `valid #${index + 1}`, async () => {
        const found = await detectionsOf(strategy, plugin, entry);
        assert.deepEqual(
          found.map((d) => d.message),
          [],
          `${strategy} should find nothing here`,
        );
      });
    });
    (cases.invalid ?? []).forEach((entry, index) => {
      it(entry.name ?? `invalid #${index + 1}`, async () => {
        const found = await detectionsOf(strategy, plugin, entry);
        assert.equal(
          found.length,
          entry.detections.length,
          `${strategy} made ${found.length} detections, expected ${entry.detections.length}: ${JSON.stringify(found.map((d) => d.message))}`,
        );
        found.forEach((detection, i) => checkDetection(detection, entry.detections[i] ?? {}, i));
      });
    });
  });
}

async function detectionsOf(strategy: string, plugin: CadencePlugin, entry: ValidCase): Promise<Detection[]> {
  const run = await runPlugin(plugin, entry.source as never, entry.run);
  const result = run.strategy(strategy);
  assert.equal(result.error, null, `${strategy} failed: ${result.error ?? ''}`);
  return run.detectionsOf(strategy);
}

function checkDetection(actual: Detection, expected: ExpectedDetection, index: number): void {
  const where = `detection #${index + 1}`;
  if (expected.commit !== undefined) assert.equal(actual.commit, expected.commit, `${where}: commit`);
  if (expected.element !== undefined) assert.equal(actual.element, expected.element, `${where}: element`);
  if (expected.severity !== undefined) assert.equal(actual.severity, expected.severity, `${where}: severity`);
  if (expected.messageId !== undefined) assert.equal(actual.messageId, expected.messageId, `${where}: messageId`);
  if (typeof expected.message === 'string') assert.equal(actual.message, expected.message, `${where}: message`);
  else if (expected.message) assert.match(actual.message, expected.message, `${where}: message`);
}

function testFunctions(): TestFunctions {
  const scope = globalThis as Partial<TestFunctions>;
  if (typeof scope.describe !== 'function' || typeof scope.it !== 'function') {
    throw new Error(
      'testStrategy defines tests with the global describe/it of a test runner such as mocha: call it from a test file',
    );
  }
  return { describe: scope.describe, it: scope.it };
}

const SIGNATURE = 'testStrategy(strategyName, plugin, cases, runner?)';

const isFunction = (value: unknown): boolean => typeof value === 'function';
const described = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value;

/** A wrong argument is said in one line naming the signature, before any test is declared. */
function checkArguments(strategy: unknown, plugin: unknown, cases: unknown, runner: unknown): void {
  function fail(problem: string): never {
    throw new TypeError(`${SIGNATURE}: ${problem}`);
  }
  if (typeof strategy !== 'string' || strategy.length === 0)
    fail(`strategyName must be the strategy's name (meta.name, a string), not ${described(strategy)}`);
  if (!isRecord(plugin) || !isFunction(plugin.apply))
    fail(
      `plugin must be the plugin (the package's default export, with apply(hooks)), not ${described(plugin)}${
        isRecord(plugin) && 'meta' in plugin && 'analyze' in plugin
          ? ': this is a strategy; pass the plugin that registers it'
          : ''
      }`,
    );
  if (!isRecord(cases)) fail(`cases must be { valid?: [...], invalid?: [...] }, not ${described(cases)}`);
  for (const key of ['valid', 'invalid'] as const)
    if (cases[key] !== undefined && !Array.isArray(cases[key])) fail(`cases.${key} must be an array`);
  if (!isRecord(runner) || !isFunction(runner.describe) || !isFunction(runner.it))
    fail(
      'runner must give describe and it functions (mocha\u2019s globals are used when it is left out: run the file under mocha)',
    );
}
