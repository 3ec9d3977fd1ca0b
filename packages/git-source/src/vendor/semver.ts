// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of semver.
import semver from 'semver';

export const { gte } = semver;
