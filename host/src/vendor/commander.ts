// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of commander.
export { Command, CommanderError, InvalidArgumentError } from 'commander';
