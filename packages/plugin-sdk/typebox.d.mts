// The types of `@cadence-detect/plugin-sdk/typebox`: TypeBox's own. Its code is TypeBox bundled into
// one module (dist/typebox.mjs, written by the build), which loads in a fraction of the time.
import Type from 'typebox';
import Value from 'typebox/value';

export { Type, Value };
export type { Static, TSchema } from 'typebox';
