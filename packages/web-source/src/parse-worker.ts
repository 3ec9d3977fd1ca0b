// Worker entry (see parse-in-worker.ts): parses the page it was started with and posts the document
// back as plain data. A throw here ends only this worker; the caller turns it into a CadenceError.
import { parentPort, workerData } from 'node:worker_threads';
import { parseDocument } from './parse-document.js';
import type { WorkerInput } from './parse-in-worker.js';

const input = workerData as WorkerInput;
parentPort!.postMessage(parseDocument(input.body, { url: input.url, contentType: input.contentType }));
