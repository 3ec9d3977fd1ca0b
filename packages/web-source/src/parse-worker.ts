// Worker entry (see parse-in-worker.ts): parses the page it was started with and posts the document
// back in its compact form, its offset arrays moved rather than copied. A throw here ends only this
// worker; the caller turns it into a CadenceError.
import { parentPort, workerData } from 'node:worker_threads';
import { transferables } from './document-wire.js';
import { parseToWire } from './parse-document.js';
import type { WorkerInput } from './parse-in-worker.js';

const input = workerData as WorkerInput;
const wire = parseToWire(input.body, { url: input.url, contentType: input.contentType });
if (!parentPort) throw new Error('parse-worker runs as a worker thread only');
parentPort.postMessage(wire, transferables(wire));
