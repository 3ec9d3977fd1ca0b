// The published entry: plain ESM JavaScript, so the plugin needs no build step.
export { default, fileDropsStrategy, droppedFiles, FILE_DROPS_OPTIONS } from './src/plugin.js';
