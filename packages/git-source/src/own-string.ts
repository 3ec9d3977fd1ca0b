/**
 * A copy of `text` that holds no reference to a larger string. V8 keeps a substring of a long
 * string (a `slice`, a `split` piece) as a view into it, so a 40-character hash kept from a
 * commit's `git log -p` text keeps that whole text alive: the line ledger, which keeps every
 * commit's hash, otherwise held most of a history's patches until it finished. A round trip
 * through a Buffer is the one copy V8 cannot turn into a view.
 */
export function ownString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * One copy of each distinct string (ownString), handed out again for every equal one: the names,
 * emails and paths a history repeats in every commit record cost one string each.
 */
export function stringInterner(): (text: string) => string {
  const seen = new Map<string, string>();
  return (text) => {
    let found = seen.get(text);
    if (found === undefined) {
      found = ownString(text);
      seen.set(found, found);
    }
    return found;
  };
}
