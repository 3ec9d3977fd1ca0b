import { authorKeys, type CommitRecord } from '@cadence-detect/plugin-sdk';

/** One key per person across a history's commits (the SDK's authorKeys over their authors, `.mailmap` already applied by git). */
export function authorIdentities(commits: readonly CommitRecord[]): (commit: CommitRecord) => string {
  const key = authorKeys(commits.map((c) => ({ name: c.authorName, email: c.authorEmail })));
  return (commit) => key({ name: commit.authorName, email: commit.authorEmail });
}
