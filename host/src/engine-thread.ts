// An analysis thread of `cadence webhook` (memory backend): builds the engine the way the server
// did, from the same configuration file and flags, then runs the analyses the server's pool sends.
// First: the thread lowers its own priority before anything else loads.
import './analysis-thread-priority.js';
import { parentPort, workerData } from 'node:worker_threads';
// The thread's half alone: the package's index would load the whole HTTP server (Koa, BullMQ, the forges).
import { serveAnalysisThread } from '@cadence/server/analysis-thread';
import { createRuntime } from './runtime.js';

export interface EngineThreadData {
  readonly configPath: string | null;
  readonly flags: Record<string, unknown>;
  readonly cwd: string;
}

const data = workerData as EngineThreadData;
const runtime = await createRuntime(
  { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: data.cwd },
  { ...(data.configPath ? { configPath: data.configPath } : {}), flags: data.flags, quietWarnings: true },
);
serveAnalysisThread(parentPort!, runtime.engine);
