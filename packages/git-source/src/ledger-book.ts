import { NO_SITE, type CopySite } from './copy-sites.js';
import type { Ledger } from './history-ledger.js';
import type { FileDiff } from './line-replay.js';
import { ArrayOwnership, emptyState, type FileState } from './ledger-state.js';

/** Slots per commit in a line's value: 0 unmarked, 1… the assistant its writer's record names. */
export const SLOTS = 256;

export const writerIndex = (value: number): number => Math.floor(value / SLOTS);
export const assistantSlot = (value: number): number => value % SLOTS;

/** One commit's diff against its first parent, as it arrives. */
export interface PendingCommit {
  readonly hash: string;
  readonly parents: readonly string[];
  readonly diffs: FileDiff[];
  /** New files blame follows to a file `git log -M` gave to another (ledger-follows.ts): their diffs from it. */
  followed?: Map<string, FileDiff>;
}

/**
 * What the replay keeps between commits: the commits and assistants so far, each commit's ledger
 * until its last child has been replayed (a history without branches keeps one), the copy sites,
 * and the lines that kept their writers through a move or a copy.
 */
export class LedgerBook {
  readonly commits: string[];
  readonly assistants: (string | null)[];
  readonly states = new Map<string, FileState>();
  readonly owners = new ArrayOwnership();
  /** Site 0 is no site (a tag of 0 is a line of no copying block). */
  readonly sites: CopySite[] = [NO_SITE];
  /** This commit's deletions that are moves (their line lives on elsewhere): no rework. */
  readonly movedDeletions = new Set<number>();
  moved: number;
  /** Commits of the kept ledger this read resumed from. */
  readonly earlier: number;
  private readonly slotOf: Map<string | null, number>;
  private readonly children = new Map<string, number>();

  constructor(parents: ReadonlyMap<string, readonly string[]>, resumed: Ledger | undefined) {
    this.commits = [...(resumed?.commits ?? [])];
    this.assistants = [...(resumed?.assistants ?? [])];
    this.slotOf = new Map(this.assistants.map((name, i) => [name, i + 1]));
    for (const list of parents.values())
      for (const parent of list) this.children.set(parent, (this.children.get(parent) ?? 0) + 1);
    if (resumed) {
      const files = resumed.files as ReadonlyMap<string, number[]>;
      const kept = { origins: new Map(files), texts: new Map(resumed.texts as Map<string, number[]>), tags: new Map() };
      this.owners.share(kept);
      this.states.set(resumed.head, kept);
    }
    this.moved = resumed?.movedLines ?? 0;
    this.earlier = resumed?.commits.length ?? 0;
  }

  /** The parent's ledger for a child: taken over by its last child, copied (its arrays shared, never changed in place) otherwise. */
  stateOf(parent: string | undefined): FileState {
    if (parent === undefined) return emptyState();
    const state = this.states.get(parent);
    if (!state) return emptyState();
    const left = (this.children.get(parent) ?? 1) - 1;
    this.children.set(parent, left);
    if (left <= 0) {
      this.states.delete(parent);
      return state;
    }
    this.owners.share(state);
    return { origins: new Map(state.origins), texts: new Map(state.texts), tags: new Map(state.tags) };
  }

  /** The slot of an assistant a record names (the last slot for every one past 255). */
  slot(assistant: string | null): number {
    let found = this.slotOf.get(assistant);
    if (found === undefined) {
      if (this.assistants.length >= SLOTS - 1) return SLOTS - 1;
      this.assistants.push(assistant);
      found = this.assistants.length;
      this.slotOf.set(assistant, found);
    }
    return found;
  }

  /** Keeps a replayed commit's ledger while a child (or the head's reader) still needs it. */
  keep(hash: string, state: FileState, head: string): void {
    if ((this.children.get(hash) ?? 0) > 0 || hash === head) this.states.set(hash, state);
  }
}
