// Label rules and stripping for the development corpus (label-rules.yaml). Plain functions over
// commit records, so that a unit test can check them on hand-written commits.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const LABEL_RULES_FILE = new URL('./label-rules.yaml', import.meta.url);

const TRAILER = /^([A-Za-z][A-Za-z0-9-]{0,40}):[ \t]*(\S.*)$/;
const BOT = /\[bot\]$|\[bot\]@|^(?:dependabot|renovate|github-actions)/i;

export function loadLabelRules(file = LABEL_RULES_FILE) {
  const { rules } = parse(readFileSync(file, 'utf8'));
  return rules.map((rule) => ({
    id: rule.id,
    where: rule.where,
    assistant: rule.assistant ?? null,
    stripOnly: rule.strip_only === true,
    key: rule.key ? new RegExp(`^(?:${rule.key})$`, 'i') : null,
    pattern: new RegExp(rule.pattern, 'i'),
    unless: rule.unless ? new RegExp(rule.unless, 'i') : null,
  }));
}

/** The assistant names of label-rules.yaml (`assistants`), in order: [name, pattern]. */
export function loadAssistantNames(file = LABEL_RULES_FILE) {
  const { assistants } = parse(readFileSync(file, 'utf8'));
  return Object.entries(assistants ?? {}).map(([name, pattern]) => [name, new RegExp(pattern, 'i')]);
}

function lineMatches(rule, line) {
  if (rule.where === 'line') return rule.pattern.test(line);
  if (rule.where !== 'trailer') return false;
  const trailer = TRAILER.exec(line);
  return trailer !== null && rule.key.test(trailer[1]) && rule.pattern.test(trailer[2]) && !(rule.unless && rule.unless.test(trailer[2]));
}

function identityMatches(rule, name, email) {
  if (rule.where !== 'identity') return false;
  if (rule.unless && (rule.unless.test(name) || rule.unless.test(email))) return false;
  return rule.pattern.test(name) || rule.pattern.test(email);
}

/** The ids of the label rules a commit matches. */
export function labelRulesOf(commit, rules) {
  const hits = new Set();
  const lines = commit.body.split('\n').map((l) => l.trim());
  for (const rule of rules) {
    if (rule.stripOnly) continue;
    if (rule.where === 'subject' && rule.pattern.test(commit.subject)) hits.add(rule.id);
    if (identityMatches(rule, commit.authorName, commit.authorEmail) || identityMatches(rule, commit.committerName, commit.committerEmail)) hits.add(rule.id);
    if (lines.some((line) => lineMatches(rule, line))) hits.add(rule.id);
  }
  return [...hits];
}

/**
 * The assistant a labelled commit was made with (label-rules.yaml, `assistants`): from an agent
 * identity first (the account made the commit), else from what the rules matched in the subject and
 * lines; a rule's own `assistant`, else the first name in the file's order whose pattern matches a
 * matched text. `other` when a rule matched but names none; null when no rule matches.
 */
export function assistantOf(commit, rules, names) {
  const identities = [];
  const messages = [];
  rules = rules.filter((rule) => !rule.stripOnly);
  for (const rule of rules) {
    for (const [name, email] of [[commit.authorName, commit.authorEmail], [commit.committerName, commit.committerEmail]]) {
      if (identityMatches(rule, name, email)) identities.push(rule.assistant ?? `${name} <${email}>`);
    }
  }
  for (const rule of rules) if (rule.where === 'subject' && rule.pattern.test(commit.subject)) messages.push(rule.assistant ?? commit.subject.match(rule.pattern)[0]);
  for (const raw of commit.body.split('\n')) {
    const line = raw.trim();
    for (const rule of rules) if (lineMatches(rule, line)) messages.push(rule.assistant ?? line);
  }
  if (identities.length + messages.length === 0) return null;
  // The first name (in the file's order: the most specific first) that any matched text gives.
  for (const texts of [identities, messages]) {
    const named = names.find(([, pattern]) => texts.some((text) => pattern.test(text)));
    if (named) return named[0];
  }
  return 'other';
}

const defaultAutomation = (commit) => BOT.test(commit.authorName) || BOT.test(commit.authorEmail);

/**
 * `assistant`, `human` (before the repository's cut-off date, no rule, not automation) or null
 * (unlabeled). `isAutomation` says whether a commit's author is an automation account (dependabot,
 * release bots: neither class); the corpus passes the attribution plugin's automation rules.
 */
export function labelOf(commit, rules, humanBefore, isAutomation = defaultAutomation) {
  if (labelRulesOf(commit, rules).length > 0) return 'assistant';
  if (defaultAutomation(commit) || isAutomation(commit)) return null;
  return commit.authorTime < humanBefore ? 'human' : null;
}

const NEUTRAL = { name: 'Developer', email: 'developer@example.invalid' };

/**
 * The commit with every attribution the label rules see removed: matching lines, a matching
 * subject prefix, and agent identities (the committer stands in for an agent author when the
 * committer is a person; else a neutral identity).
 */
export function stripAttribution(commit, rules) {
  const bodyLines = commit.body.split('\n').filter((raw) => !rules.some((rule) => lineMatches(rule, raw.trim())));
  let subject = commit.subject;
  for (const rule of rules) {
    // Repeatedly: a subject can carry a prefix twice ("aider: aider: …").
    while (rule.where === 'subject' && rule.pattern.test(subject)) subject = subject.replace(rule.pattern, '');
  }
  const agent = (name, email) => rules.some((rule) => identityMatches(rule, name, email));
  const committerIsAgent = agent(commit.committerName, commit.committerEmail);
  const committer = committerIsAgent ? NEUTRAL : { name: commit.committerName, email: commit.committerEmail };
  const author = agent(commit.authorName, commit.authorEmail) ? committer : { name: commit.authorName, email: commit.authorEmail };
  return {
    ...commit,
    subject: subject.trim(),
    body: bodyLines.join('\n').trim(),
    authorName: author.name,
    authorEmail: author.email,
    committerName: committer.name,
    committerEmail: committer.email,
  };
}

// Written or carried (docs/scoring.md, "Written and carried commits"): decided on the commit as it
// was made, before stripping. Written: the assistant's tool composed the message (an agent account
// made the commit, or the message carries the tool's own footer or trailer, or a body beyond
// trailers). Carried: a person's commit that only carries the assistant's work (GitHub's accepted
// suggestion, a squash reduced to the request's title, a subject with nothing but a co-author line).
const SQUASH_SUBJECT = /\s\(#\d+\)$/;
const SUGGESTION_SUBJECT = /^Apply suggestions? from (code review|@\S+)/i;
/** Lines of a message that are nobody's prose: git trailers, GitHub's squash separator, and the
 * coding agent's automatic first plan listed in a squash. */
const NOT_PROSE =
  /^(?:[A-Za-z][A-Za-z0-9-]{0,40}-by|co-authored-by|change-id|agent-logs-url|made-with|fixes|closes|resolves|refs?|issue|pr-url|url)\s*:|^-{3,}$|^\*\s*initial plan$/i;
/** A co-author of a forge account (a GitHub no-reply address, a `[bot]`, Copilot's own address):
 * what GitHub adds when a suggestion is accepted or a request squashed, not what a tool writes. */
const FORGE_COAUTHOR = /^co-authored-by:.*(\[bot\]|@users\.noreply\.github\.com>?$|<copilot@github\.com>$)/i;

/** The lines of a commit's body that are prose of its own (not attribution, trailers or separators). */
export function proseLines(commit, rules) {
  return commit.body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !NOT_PROSE.test(line) && !rules.some((rule) => !rule.stripOnly && lineMatches(rule, line)));
}

/** Co-authors that only ever suggest (Copilot's review and chat account, Gemini Code Assist's
 * reviewer): they never compose a message, so a commit they co-author is the person's writing. */
const SUGGESTION_COAUTHOR = /^co-authored-by:.*(\b175728472\+copilot@|gemini-code-assist\[bot\]|<copilot@github\.com>$)/i;

function coauthorMarks(commit, rules) {
  return commit.body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => rules.some((rule) => rule.id === 'coauthor-assistant' && lineMatches(rule, line)));
}

/** `written` or `carried` for an assistant-labelled commit (null for any other). */
export function originOf(commit, rules) {
  const hits = labelRulesOf(commit, rules);
  if (hits.length === 0) return null;
  if (SUGGESTION_SUBJECT.test(commit.subject)) return 'carried';
  const suggestionsOnly =
    hits.every((id) => id === 'coauthor-assistant') && coauthorMarks(commit, rules).every((line) => SUGGESTION_COAUTHOR.test(line));
  if (suggestionsOnly) return 'carried';
  const prose = proseLines(commit, rules).length > 0;
  if (SQUASH_SUBJECT.test(commit.subject) && !prose) return 'carried';
  if (hits.includes('agent-identity') || prose) return 'written';
  // A person's commit with a subject alone: carried when its only mark is a co-author line the forge
  // added; a tool's own co-author form (aider's, Claude Code's, Cursor's) is in a message it wrote.
  if (hits.some((id) => id !== 'coauthor-assistant')) return 'written';
  return coauthorMarks(commit, rules).every((line) => FORGE_COAUTHOR.test(line)) ? 'carried' : 'written';
}
