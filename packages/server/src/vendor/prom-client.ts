// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of prom-client (with @opentelemetry/api, which it loads).
export { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
