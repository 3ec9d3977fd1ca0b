import * as semver from './vendor/semver.js';
import { PLUGIN_API_VERSION } from '@cadence-detect/plugin-sdk';

export const SDK_PACKAGE = '@cadence-detect/plugin-sdk';

/**
 * The plugin API range a plugin targets: its own `apiVersion`, else its peer dependency on the SDK.
 * A plugin that declares neither is refused: nothing says it was written for this API.
 */
export function targetedRange(
  apiVersion: string | undefined,
  peerDependencies: Readonly<Record<string, string>> | undefined,
): string | null {
  return apiVersion ?? peerDependencies?.[SDK_PACKAGE] ?? null;
}

/** null when compatible, else the reason, naming the versions that would fit. */
export function incompatibility(range: string | null): string | null {
  if (range === null) {
    return `declares no plugin API version: add a peer dependency "${SDK_PACKAGE}": "^${semver.major(PLUGIN_API_VERSION)}.0.0"`;
  }
  if (range.startsWith('workspace:')) return null;
  if (!semver.validRange(range)) return `declares an invalid plugin API range "${range}"`;
  if (semver.satisfies(PLUGIN_API_VERSION, range)) return null;
  return `targets plugin API ${range}, but this host provides ${PLUGIN_API_VERSION}: a release of the plugin for ^${semver.major(PLUGIN_API_VERSION)}.0.0 fits`;
}
