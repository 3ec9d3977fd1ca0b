// Runs inside a network namespace that has only loopback (see ../unreachable-target.test.ts): starts
// the real server, submits website jobs whose targets cannot be routed to, and prints what happened
// as one JSON line. It refuses to run anywhere a packet could leave the machine.
import { networkInterfaces } from 'node:os';
import { eventually, makeTempDir, startCadenceServer, waitForJob } from '@cadence-detect/test-support';

export interface TargetOutcome {
  readonly url: string;
  readonly status: string | null;
  readonly errorCode: string | null;
  readonly healthStatus: number | null;
  readonly serverExitCode: number | null;
  readonly failure: string | null;
}

const interfaces = Object.keys(networkInterfaces());
if (interfaces.some((name) => name !== 'lo')) {
  console.log(JSON.stringify({ refused: `not isolated: interfaces ${interfaces.join(', ')}` }));
  process.exit(2);
}

const urls = process.argv.slice(2);
const work = await makeTempDir('cadence-netns-');
const server = await startCadenceServer({ cwd: work.path });
const outcomes: TargetOutcome[] = [];
for (const url of urls) {
  let status: string | null = null;
  let errorCode: string | null = null;
  let healthStatus: number | null = null;
  let failure: string | null = null;
  let id: string | null = null;
  try {
    const accepted = await server.json<{ id: string }>('/api/analyze/website', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    id = accepted.body.id;
    const job = await waitForJob<{ status: string; error_code: string | null }>(server, id, 15_000);
    status = job.status;
    errorCode = job.error_code;
  } catch (error) {
    failure = String(error);
  }
  // The process could die a moment after the job's record was written: its end's log line, written
  // after the record, is awaited before /health is asked.
  if (id)
    await eventually(
      () =>
        server.child.exitCode !== null ||
        server.logs.some(
          (l) => l.job_id === id && /^job (completed|failed|timeout|cancelled)$/.test(String(l.message)),
        ),
      'the job\u2019s end in the log',
      { timeoutMs: 5000 },
    ).catch((error: unknown) => (failure ??= String(error)));
  healthStatus = await server.request('/health').then(
    (r) => r.status,
    () => null,
  );
  outcomes.push({ url, status, errorCode, healthStatus, serverExitCode: server.child.exitCode, failure });
}
await server.stop();
await work.remove();
console.log(JSON.stringify({ outcomes }));
