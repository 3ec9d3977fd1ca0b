#!/usr/bin/env node
// Committed JavaScript on purpose: npm links bins before any build, so the bin only imports the built code.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2), { cwd: process.cwd(), out: process.stdout, err: process.stderr });
