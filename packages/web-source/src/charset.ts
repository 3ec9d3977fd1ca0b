/** The charset of a page: the Content-Type header's, else a BOM, else a <meta> in the first 2 KiB, else UTF-8. */
export function detectCharset(bytes: Buffer, contentType: string): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (fromHeader && isSupported(fromHeader)) return fromHeader.toLowerCase();
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const head = bytes.subarray(0, 2048).toString('latin1');
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  if (fromMeta && isSupported(fromMeta)) return fromMeta.toLowerCase();
  return 'utf-8';
}

function isSupported(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

export function decode(bytes: Buffer, charset: string): string {
  return new TextDecoder(charset).decode(bytes);
}
