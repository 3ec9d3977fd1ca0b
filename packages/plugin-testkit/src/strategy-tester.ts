import assert from 'node:assert/strict';
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
        entry.detections.forEach((expected, i) => checkDetection(found[i]!, expected, i));
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
