#!/usr/bin/env node
// The CLI itself: it finds the server, the AI providers and the forges this package installs
// beside it (they resolve from the CLI's folder), as it would after separate global installs.
import '@cadence-detect/cli/bin/cadence.js';
