import { expect } from 'chai';
import { definePlugin } from '@cadence-detect/plugin-sdk';
import { PluginOptionsError, resolvePluginOptions } from '../src/index.js';

const bullets = definePlugin({
  name: 'bullet-bodies',
  meta: {
    options: {
      type: 'object',
      properties: {
        min_bullets: { type: 'integer', minimum: 1, default: 3 },
        max_lines: { type: 'integer', default: 40 },
      },
      additionalProperties: false,
    },
  },
  apply() {},
});

function problem(options: Record<string, unknown>): string {
  try {
    resolvePluginOptions(
      [{ plugin: bullets, packageName: 'cadence-plugin-bullets', version: '1.0.0', source: 'config' }],
      { sections: { 'bullet-bodies': options }, inline: new Map() },
    );
  } catch (error) {
    if (error instanceof PluginOptionsError) return error.message;
    throw error;
  }
  throw new Error('expected the options to be refused');
}

/** A plugin's options refused in words a user acts on, not the schema's. */
describe('plugin option errors read as sentences', () => {
  it('an unknown option close to a real one: did you mean', () => {
    expect(problem({ min_bulets: 3 })).to.equal(
      'Invalid configuration: plugin_options.bullet-bodies.min_bulets: unknown option min_bulets (did you mean min_bullets?) (options of the plugin bullet-bodies, cadence-plugin-bullets)',
    );
  });

  it('an unknown option near nothing: the options there are', () => {
    expect(problem({ colour: 'red' })).to.contain('unknown option colour (the options are min_bullets, max_lines)');
  });

  it('a wrong value keeps the key and says what is expected', () => {
    expect(problem({ min_bullets: 0 }))
      .to.contain('plugin_options.bullet-bodies.min_bullets:')
      .and.not.contain('unknown option');
  });
});
