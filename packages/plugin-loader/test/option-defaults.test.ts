import { expect } from 'chai';
import { Type } from '@cadence-detect/plugin-sdk/typebox';
import { definePlugin, type CadencePlugin } from '@cadence-detect/plugin-sdk';
import { resolvePluginOptions } from '../src/index.js';

function resolved(
  plugin: CadencePlugin,
  given: Record<string, unknown> = {},
): Readonly<Record<string, unknown>> | undefined {
  const [loaded] = resolvePluginOptions(
    [{ plugin, packageName: `cadence-plugin-${plugin.name}`, version: '1.0.0', source: 'config' }],
    { sections: { [plugin.name]: given }, inline: new Map() },
  );
  return loaded!.options;
}

/** Defaults are applied before the options are checked, from either kind of schema a plugin may declare. */
describe('plugin option defaults', () => {
  it('fills a typebox schema\u2019s defaults, nested ones and unions included, and freezes the result', () => {
    const plugin = definePlugin({
      name: 'typed',
      meta: {
        options: Type.Object(
          {
            min_lines: Type.Integer({ minimum: 1, default: 300 }),
            key: Type.Union([Type.String(), Type.Null()], { default: null }),
            nested: Type.Object({ depth: Type.Integer({ default: 2 }) }, { default: {} }),
          },
          { additionalProperties: false },
        ),
      },
      apply() {},
    });
    const options = resolved(plugin, { key: 'k' });
    expect(options).to.deep.equal({ min_lines: 300, key: 'k', nested: { depth: 2 } });
    expect(Object.isFrozen(options) && Object.isFrozen(options!.nested)).to.equal(true);
  });

  it('fills a plain JSON Schema\u2019s defaults too (a plugin in plain JavaScript, API 1.1), where typebox\u2019s Value.Default fills none', () => {
    const plugin = definePlugin({
      name: 'plain',
      meta: {
        options: {
          type: 'object',
          properties: {
            min_lines: { type: 'integer', minimum: 1, default: 300 },
            nested: { type: 'object', properties: { depth: { type: 'integer', default: 2 } }, default: {} },
          },
          additionalProperties: false,
        },
      },
      apply() {},
    });
    expect(resolved(plugin)).to.deep.equal({ min_lines: 300, nested: { depth: 2 } });
    expect(resolved(plugin, { min_lines: 40, nested: { depth: 5 } })).to.deep.equal({
      min_lines: 40,
      nested: { depth: 5 },
    });
  });

  it('leaves the schema\u2019s default objects unshared: one plugin\u2019s options never alias its schema', () => {
    const schema = { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' }, default: [] } } };
    const plugin = definePlugin({ name: 'shared', meta: { options: schema }, apply() {} });
    const options = resolved(plugin);
    expect(options!.paths).to.deep.equal([]);
    expect(options!.paths).to.not.equal(schema.properties.paths.default);
    expect(Object.isFrozen(schema.properties.paths.default)).to.equal(false);
  });
});
