import type { CadencePlugin } from '@cadence-detect/plugin-sdk';

/** A plugin the host loaded, with where it came from (what `/api/plugins` and `cadence plugins` show). */
export interface LoadedPlugin {
  readonly plugin: CadencePlugin;
  readonly packageName: string;
  readonly version: string;
  readonly source: 'builtin' | 'config' | 'discovered';
  readonly path?: string;
  /** How the configuration named it (a package name or a path); absent for discovered ones. */
  readonly specifier?: string;
  /** Its options, checked against its own schema and frozen (see @cadence-detect/plugin-loader's resolvePluginOptions). */
  readonly options?: Readonly<Record<string, unknown>>;
}
