import Type from 'typebox';
import { defineStrategy, definePlugin } from '@cadence-detect/plugin-sdk';

/**
 * The plugin's options (plugin API 1.1): a typebox schema, checked by the host with its defaults
 * applied. Set them in the configuration as `plugin_options: { file-drops: { min_lines: 400 } }`.
 * It also types them (API 1.6): `context.options.min_lines` is a number, in plain JavaScript too
 * (`checkJs`), with no cast and no second copy of the default.
 */
export const FILE_DROPS_OPTIONS = Type.Object(
  {
    min_lines: Type.Integer({ minimum: 1, default: 300 }),
  },
  { additionalProperties: false },
);

/**
 * The files a commit brings in whole: added with at least `minLines` lines and nothing deleted, not
 * matched by the configuration's exclude_files. A file that appears complete in one commit was
 * written elsewhere: pasted, generated or moved in.
 * @param {import('@cadence-detect/plugin-sdk').CommitRecord} commit
 * @param {number} minLines
 */
export function droppedFiles(commit, minLines) {
  if (commit.isMerge || commit.isBoundary || commit.parents.length === 0) return [];
  return commit.files.filter(
    (file) => !file.excluded && !file.binary && file.deletions === 0 && file.additions >= minLines,
  );
}

// Declared with its plugin's options schema: context.options has the schema's type.
export const fileDropsStrategy = defineStrategy(FILE_DROPS_OPTIONS, {
  meta: {
    name: 'file-drops',
    category: 'size',
    description: 'Single files that arrive whole in one commit (at least min_lines lines added, none deleted).',
    appliesTo: 'repository',
    weight: 0.5,
    // Findings name a message by id (`messageId`) and give its `data`: reports and SARIF key on the id.
    messages: {
      oneFile: '1 file added whole, the largest {{path}} ({{lines}} lines, min_lines {{minLines}})',
      files: '{{count}} files added whole, the largest {{path}} ({{lines}} lines, min_lines {{minLines}})',
    },
  },
  analyze(context) {
    const minLines = context.options.min_lines;
    // Typed by the ids of `messages` (plugin API 2.0): a misspelt messageId fails `tsc --checkJs`.
    /** @type {import('@cadence-detect/plugin-sdk').Finding<'oneFile' | 'files'>[]} */
    const findings = [];
    for (const commit of context.commits) {
      const dropped = droppedFiles(commit, minLines);
      if (dropped.length === 0) continue;
      const largest = dropped.reduce((a, b) => (b.additions > a.additions ? b : a));
      findings.push({
        commit: commit.hash,
        // Twice the minimum is as strong as this evidence gets; a whole file is weaker than an attribution.
        score: Math.min(1, 0.4 + 0.3 * (largest.additions / minLines - 1)),
        messageId: dropped.length === 1 ? 'oneFile' : 'files',
        data: { count: dropped.length, path: largest.path, lines: largest.additions, minLines },
        measured: { files: dropped.length, largest_additions: largest.additions },
      });
    }
    return findings;
  },
});

export default definePlugin({
  name: 'file-drops',
  meta: { description: 'Files that arrive whole in one commit.', options: FILE_DROPS_OPTIONS },
  apply(hooks) {
    hooks.registerStrategies.tap('file-drops', (registrar) => registrar.add(fileDropsStrategy));
  },
});
