// The grammar of `forge:owner` (github:acme, gitlab:platform/backend): one rule for the
// configuration's scans.* entries and for the organization requests the server takes.

/** A forge's name as its plugin declares it. */
export function isForgeName(name: string): boolean {
  return /^[a-z][a-z0-9-]{0,39}$/.test(name);
}

/** An organization, user or group path: names of letters, digits, `_ . -` joined by `/`, never `.` or `..`. */
export function isOwnerPath(owner: string): boolean {
  return (
    /^[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/.test(owner) &&
    !owner.split('/').some((part) => part === '.' || part === '..')
  );
}
