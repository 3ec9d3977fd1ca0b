// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of koa-body (with
// formidable and co-body), imported when the first request body is read.
export { koaBody } from 'koa-body';
