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

/**
 * Bytes 0x80–0x9F of windows-1252, which the web uses for latin1 labels too. Node's TextDecoder
 * decodes these labels as ISO-8859-1 (control characters), so they are mapped here.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const WINDOWS_1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'latin1',
  'iso-8859-1',
  'iso8859-1',
  'l1',
  'us-ascii',
  'ascii',
  'x-cp1252',
]);

export function decode(bytes: Buffer, charset: string): string {
  if (WINDOWS_1252_LABELS.has(charset.toLowerCase())) {
    let out = '';
    for (const byte of bytes)
      out += byte >= 0x80 && byte <= 0x9f ? (WINDOWS_1252_HIGH[byte - 0x80] ?? '') : String.fromCharCode(byte);
    return out;
  }
  return new TextDecoder(charset).decode(bytes);
}
