/**
 * An array's or typed array's item at an index the caller's arithmetic keeps in range: where the
 * type allows `undefined` (`noUncheckedIndexedAccess`) and a reading past the end is a bug, it
 * fails then, naming the index, rather than carrying `undefined` on as a number. Items that may
 * themselves be `undefined` are refused by the type: for them `undefined` is a value, not a miss.
 */
export function itemAt<T extends object | string | number | boolean | bigint | symbol | null>(
  items: ArrayLike<T>,
  index: number,
): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`no item at index ${index} of ${items.length}`);
  return item;
}
