// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of tapable.
export { AsyncParallelHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
