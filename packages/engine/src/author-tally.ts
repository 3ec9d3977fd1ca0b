import type { AuthorBreakdown, CommitRecord } from '@cadence-detect/plugin-sdk';
import { round } from './strategy-outcomes.js';

/** The result lists this many authors, the most active first (all with `allAuthors`). */
const MAX_AUTHORS = 50;

/** What one commit adds to its author's line. */
export interface AuthorCommit {
  readonly confidence: number;
  readonly flagged: boolean;
  readonly explicit: boolean;
  readonly automation: boolean;
  /** The assistants its explicit findings name. */
  readonly named: readonly string[];
}

interface AuthorEntry {
  readonly author: string;
  readonly email: string;
  commits: number;
  attributed: number;
  flagged: number;
  sum: number;
  scored: number;
  automation: number;
  readonly assistants: Record<string, number>;
}

/** Each person's commits, attributions, flags and share, tallied as the commits are judged. */
export class AuthorTally {
  private readonly authors = new Map<string, AuthorEntry>();

  /** `key`: the commit's author as one person (author-identities.ts); the first commit seen names them. */
  /** `counts`: whether the commit counts toward the share (scored, or attributed; never automation). */
  add(key: string, commit: CommitRecord, judged: AuthorCommit, counts: boolean): void {
    let entry = this.authors.get(key);
    if (!entry) {
      entry = {
        author: commit.authorName,
        email: commit.authorEmail,
        commits: 0,
        attributed: 0,
        flagged: 0,
        sum: 0,
        scored: 0,
        automation: 0,
        assistants: {},
      };
      this.authors.set(key, entry);
    }
    entry.commits++;
    if (judged.explicit) {
      entry.attributed++;
      for (const name of judged.named) entry.assistants[name] = (entry.assistants[name] ?? 0) + 1;
    }
    if (judged.flagged) entry.flagged++;
    if (judged.automation) entry.automation++;
    if (counts) {
      entry.sum += judged.confidence;
      entry.scored++;
    }
  }

  breakdown(allAuthors: boolean): AuthorBreakdown[] {
    return [...this.authors.values()]
      .sort((a, b) => b.commits - a.commits || a.email.localeCompare(b.email))
      .slice(0, allAuthors ? undefined : MAX_AUTHORS)
      .map((a): AuthorBreakdown => ({
        author: a.author,
        email: a.email,
        commits: a.commits,
        attributed: a.attributed,
        flagged: a.flagged,
        share: a.scored > 0 ? round(a.sum / a.scored) : 0,
        scored_commits: a.scored,
        assistants: a.assistants,
        ...(a.automation === a.commits ? { automation: true as const } : {}),
      }));
  }
}
