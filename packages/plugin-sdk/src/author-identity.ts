/** Names too common to say two e-mails are one person. */
const GENERIC_NAMES = new Set([
  'root',
  'unknown',
  'user',
  'admin',
  'administrator',
  'your name',
  'you',
  'me',
  'github',
  'ubuntu',
  'dev',
  'developer',
  'test',
  'nobody',
]);

/** `12345+login@users.noreply.github.com` or `login@users.noreply.github.com`: the GitHub login. */
export function githubNoReplyLogin(email: string): string | null {
  const match = /^(?:\d+\+)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)@users\.noreply\.github\.com$/i.exec(email.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

const normalName = (name: string): string => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/** A name and an e-mail as a history (or a result's authors) gives them. */
export interface AuthorIdentity {
  readonly name: string;
  readonly email: string;
}

/**
 * One key per person across identities (docs/scoring.md, Authors): identities that share an e-mail
 * (any case), a name (not a generic one such as "root"; bots by e-mail only) or a GitHub no-reply
 * login are one author, and so are a name written as a login and that login's no-reply e-mail. Returns the key of an identity among those given: the lower-cased e-mail of
 * the first identity of its group, in the order given. The engine keys a history's commits with it
 * (after `.mailmap`), the organization view its repositories' authors.
 */
export function authorKeys(identities: Iterable<AuthorIdentity>): (identity: AuthorIdentity) => string {
  const parent = new Map<string, string>();
  const find = (node: string): string => {
    let root = node;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    // Path compression: later finds are one step.
    for (let at = node; at !== root;) {
      const next = parent.get(at);
      parent.set(at, root);
      if (next === undefined) break;
      at = next;
    }
    return root;
  };
  const add = (node: string): void => {
    if (!parent.has(node)) parent.set(node, node);
  };
  const union = (a: string, b: string): void => {
    add(a);
    add(b);
    const ra = find(a);
    const rb = find(b);
    // The first node seen stays the root, so the key is the earliest identity's e-mail.
    if (ra !== rb) parent.set(rb, ra);
  };
  const order: string[] = [];
  for (const identity of identities) {
    const email = `e:${identity.email.trim().toLowerCase()}`;
    if (!parent.has(email)) order.push(email);
    add(email);
    const name = normalName(identity.name);
    if (name.length >= 3 && /\p{L}/u.test(name) && !GENERIC_NAMES.has(name) && !name.endsWith('[bot]')) {
      union(email, `n:${name}`);
      // A name written as a GitHub login (`matskkolstad`) is the person behind that login's no-reply e-mail.
      if (/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(name)) union(email, `l:${name}`);
    }
    const login = githubNoReplyLogin(identity.email);
    if (login) union(email, `l:${login}`);
  }
  // The key of a group: its first e-mail in history order.
  const keyOfRoot = new Map<string, string>();
  for (const email of order) {
    const root = find(email);
    if (!keyOfRoot.has(root)) keyOfRoot.set(root, email.slice(2));
  }
  return (identity) => {
    const email = `e:${identity.email.trim().toLowerCase()}`;
    return parent.has(email) ? (keyOfRoot.get(find(email)) ?? email.slice(2)) : email.slice(2);
  };
}
