import type { CommitRecord } from '@cadence-detect/plugin-sdk';

/** A subject that says the commit brings in someone else's code. */
const IMPORT_SUBJECT =
  /\b(?:vendor(?:ed|ing|s)?|import(?:ed|ing|s)? (?:of |from |upstream|the )|third[- ]party|upstream (?:copy|version|sources?)|(?:copy|copied) (?:of|from) |bundle[sd]? (?:copy|version)|subtree|git-subtree)\b/i;
/** An import subject alone counts for large commits only: small "vendor" commits are ordinary edits. */
const IMPORT_SUBJECT_MIN_LINES = 500;

/**
 * A vendored or imported tree: most of the commit's added lines sit under a folder that brings its
 * own licence (the git source finds it), or the subject says it imports
 * code and the commit is large. Such a commit says nothing about how its author writes code: the
 * model gives it nothing.
 */
export function isImportedTree(commit: CommitRecord): boolean {
  const tree = commit.importedTree;
  if (tree && tree.additions >= 0.5 * commit.additions) return true;
  return IMPORT_SUBJECT.test(commit.subject) && commit.additions >= IMPORT_SUBJECT_MIN_LINES;
}
