// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of yaml.
export { parse } from 'yaml';
