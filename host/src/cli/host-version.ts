import { readFileSync } from 'node:fs';

/** The host package's version (what `cadence version` prints and the User-Agent carries). */
export const HOST_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
