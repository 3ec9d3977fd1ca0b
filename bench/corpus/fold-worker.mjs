// A worker thread of folds.mjs: holds one copy of the corpus and runs each fold it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { runFold } from './folds.mjs';

parentPort.on('message', (repo) => parentPort.postMessage(runFold(repo, workerData)));
