import { readFileSync } from 'node:fs';
import { HOST_PACKAGE_JSON } from '../host-files.js';

/** The host package's version (what `cadence version` prints and the User-Agent carries). */
export const HOST_VERSION: string = (JSON.parse(readFileSync(HOST_PACKAGE_JSON, 'utf8')) as { version: string })
  .version;
