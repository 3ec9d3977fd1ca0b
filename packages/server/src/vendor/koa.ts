// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of koa and @koa/router,
// which share their dependencies (http-errors, statuses and the rest) in one bundle.
export { default as Koa } from 'koa';
export { default as Router } from '@koa/router';
