#!/usr/bin/env node
// Committed JavaScript on purpose: pnpm links bins at install time, before any build,
// so the bin itself must exist in the repository and only import the built code.
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`cadence: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
