// The published entry: plain ESM JavaScript, so the plugin needs no build step.
export { default, aiTrailersStrategy, findAttribution } from './src/plugin.js';
