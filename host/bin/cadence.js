#!/usr/bin/env node
// Committed JavaScript on purpose: pnpm links bins at install time, before any build,
// so the bin itself must exist in the repository and only import the built code.
import { tightenHeapGrowth } from '../dist/heap-growth.bundle.js';
import { main } from '../dist/cli.main.bundle.js';

// Before any analysis: V8 otherwise lets a long history's heap reach three times what it holds.
tightenHeapGrowth();

// `cadence plugins | head`: a reader that stops early is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
    // Leave once output is flushed even if a library left a handle open; unref'd so a clean exit is not delayed.
    setTimeout(() => process.exit(code), 200).unref();
  },
  (error) => {
    process.stderr.write(`cadence: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
