// An analysis thread of `cadence webhook` (memory backend): builds the engine the way the server
// did, from the configuration the server resolved (handed over as data, never re-read from a file),
// then runs the analyses the server's pool sends.
// First: the thread lowers its own priority before anything else loads.
import './analysis-thread-priority.js';
import { parentPort, workerData } from 'node:worker_threads';
// The thread's half alone: the package's index would load the whole HTTP server (Koa, BullMQ, the forges).
import { serveAnalysisThread } from '@cadence-detect/server/analysis-thread';
import { createRuntime, type ResolvedConfig } from './runtime.js';

export interface EngineThreadData {
  readonly resolved: ResolvedConfig;
  readonly cwd: string;
}

const data = workerData as EngineThreadData;
const runtime = await createRuntime(
  { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: data.cwd },
  { resolved: data.resolved, quietWarnings: true },
);
if (!parentPort) throw new Error('engine-thread runs as a worker thread only');
serveAnalysisThread(parentPort, runtime.engine);
