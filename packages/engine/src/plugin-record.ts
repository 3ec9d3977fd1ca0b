import type { CadencePlugin } from '@cadence/plugin-sdk';

/** A plugin the host loaded, with where it came from (what `/api/plugins` and `cadence plugins` show). */
export interface LoadedPlugin {
  readonly plugin: CadencePlugin;
  readonly packageName: string;
  readonly version: string;
  readonly source: 'builtin' | 'config' | 'discovered';
  readonly path?: string;
}
