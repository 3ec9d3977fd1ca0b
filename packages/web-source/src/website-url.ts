import { CadenceError } from '@cadence-detect/errors';

function refuse(input: string, reason: string): never {
  throw new CadenceError('ERR_INVALID_SOURCE', {
    message: `Refused website ${JSON.stringify(input.slice(0, 200))}: ${reason}`,
    details: { field: 'url', reason },
  });
}

/** A website URL: http or https with a host (file: only where local paths are allowed). */
export function parseWebsiteUrl(input: string, options: { allowLocalPaths: boolean }): URL {
  // Called from JavaScript too: what is not a string is refused as empty, its text shown.
  const given: unknown = input;
  if (typeof given !== 'string' || given.length === 0) refuse(String(given), 'empty');
  if (input.length > 2048) refuse(input, 'longer than 2048 characters');
  // eslint-disable-next-line no-control-regex -- controls in a URL are what this refuses
  if (/[\s\x00-\x1f\x7f]/.test(input)) refuse(input, 'contains whitespace or control characters');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    refuse(input, 'not an absolute URL');
  }
  if (url.protocol === 'file:') {
    if (!options.allowLocalPaths) refuse(input, 'local files are not allowed here (security.allow_local_paths)');
    return url;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    refuse(input, `the scheme "${url.protocol.slice(0, -1)}" is not allowed (http or https)`);
  if (!url.hostname) refuse(input, 'no host');
  return url;
}
