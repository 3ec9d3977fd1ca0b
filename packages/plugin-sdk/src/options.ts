import type { Static, TSchema } from 'typebox';

/**
 * The options of a plugin that declares none, or declares them as a plain JSON Schema:
 * checked by the host all the same, but untyped here.
 * @since 1.1
 */
export type PluginOptions = Readonly<Record<string, unknown>>;

/** What the host hands over is deep-frozen, so the type says read-only all the way down. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/**
 * The options a plugin reads, from the schema in its `meta.options`: a typebox schema
 * gives `Static<typeof schema>` (a property with a `default` is always present: the host applies
 * the defaults before `apply` runs), read-only. No schema, or a plain JSON Schema object, gives
 * `PluginOptions` as in 1.1 to 1.5.
 * @since 1.6
 */
export type OptionsOf<S> = [S] extends [TSchema & { readonly '~kind': string }]
  ? Static<S> extends infer O extends object
    ? DeepReadonly<O>
    : PluginOptions
  : PluginOptions;
