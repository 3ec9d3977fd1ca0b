// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of yaml.
export { Document, Scalar, visit } from 'yaml';
