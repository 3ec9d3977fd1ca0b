import { expect } from 'chai';
import { parse } from 'yaml';
import { configInitTemplate, PLUGIN_SECTIONS, pluginSectionTemplate, pluginSectionTemplates } from '../src/index.js';

/** A top-level section as a plugin's schema gives it: defaults, a secret, choices, a description, no default. */
const section = {
  configKey: 'ai',
  options: {
    type: 'object',
    properties: {
      enabled: { type: 'boolean', default: false },
      provider: { enum: ['openai', 'anthropic'], default: 'openai' },
      key: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, secret: true },
      model: {
        anyOf: [{ type: 'string' }, { type: 'null' }],
        default: null,
        description: 'the default model\n when unset',
      },
      backoff: { type: 'string', default: '1s', description: 'the first wait' },
      hosts: { type: 'array', default: ['a.example', 'b.example'] },
      banner: { type: 'string', default: 'first line\nsecond: line # not a comment' },
      limits: { type: 'object', default: { note: 'a\nb', count: 2 } },
    },
  },
  secrets: ['key'],
};

describe('config: a plugin section as config init writes it, from the plugin schema', () => {
  it('writes each option at its default, its description or choices as a comment, a secret as its variable, no default commented out', () => {
    expect(pluginSectionTemplate(section).split('\n')).to.deep.equal([
      'ai:',
      '  enabled: false',
      '  provider: openai               # openai | anthropic',
      '  # key: set CADENCE_AI_KEY instead',
      '  # model:                       # the default model when unset',
      '  backoff: 1s                    # the first wait',
      '  hosts: [ a.example, b.example ]',
      '  banner: "first line\\nsecond: line # not a comment"',
      '  limits: {"note":"a\\nb","count":2}',
      '',
    ]);
  });

  it('reads back as the defaults it shows (the commented options left out)', () => {
    expect(parse(pluginSectionTemplate(section))).to.deep.equal({
      ai: {
        enabled: false,
        provider: 'openai',
        backoff: '1s',
        hosts: ['a.example', 'b.example'],
        banner: 'first line\nsecond: line # not a comment',
        limits: { note: 'a\nb', count: 2 },
      },
    });
  });

  it('names the package of a section whose plugin is not installed, and comments every plugin section out in the init template', () => {
    expect(pluginSectionTemplates([])).to.deep.equal(
      Object.entries(PLUGIN_SECTIONS).map(
        ([key, name]) => `# ${key}: the settings of ${name}, listed here when it is installed and loads\n`,
      ),
    );
    const template = configInitTemplate(pluginSectionTemplates([section]));
    expect(template).to.contain('\n# ai:\n#   enabled: false\n#   provider: openai');
    expect(template).to.contain('\n#   # key: set CADENCE_AI_KEY instead\n');
    expect(template).to.not.match(/^ai:/m);
    // Uncommented once (as the template says to), a section that is not installed stays a comment.
    const absent = configInitTemplate(pluginSectionTemplates([])).replace(/^# /gm, '');
    expect(absent).to.match(/^# ai: the settings of @cadence-detect\/plugin-ai-assist/m);
  });
});
