import { HttpError } from '@cadence-detect/errors';

/**
 * A route's named path parameter (`:id` of `/jobs/:id`). The router sets every parameter its
 * path names, so a missing one is a route registered without it: answered as not found rather
 * than read as `undefined`.
 */
export function pathParameter(ctx: { readonly params: Record<string, string> }, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw HttpError.notFound(`No :${name} in this route`);
  return value;
}
