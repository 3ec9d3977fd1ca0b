export { parseRepositoryUrl, type RepositoryLocator } from './repository-url.js';
export { checkBranchName } from './clone.js';
export { openRepository, REQUEST_REF, type OpenOptions, type ClonedRepository } from './clone.js';
export { evictMirrors, mirrorKey, type MirrorOptions } from './mirrors.js';
/** Kept for callers of 1.0: the one implementation lives in @cadence-detect/errors. */
export { redactCredentials } from '@cadence-detect/errors';
export {
  readHistory,
  computeStats,
  OVERSIZED_COMMITS_LISTED,
  type ReadHistoryOptions,
  type History,
} from './history.js';
export { diffExcerpt, type DiffExcerptOptions } from './diff-excerpt.js';
export { excludeMatcher } from './exclude-matcher.js';
export { uniqueAbbreviations, MIN_ABBREVIATION } from './abbreviations.js';
export { answersAsRepository } from './probe.js';
export { parseGitVersion, atLeast, installedGitVersion, HTTP_PINNING_SINCE, type GitVersion } from './git-version.js';
export { linkAuthorIntervals, type IntervalCommit } from './author-intervals.js';
export { copiedCommits } from './cherry-picks.js';
export { readNotes, AI_NOTES_REF, NOTE_LIMITS } from './notes.js';
export {
  readAuthorshipNotes,
  SharedAuthorshipNotes,
  NO_AUTHORSHIP_NOTES,
  type AuthorshipNotes,
} from './authorship-notes.js';
export { HistoryCache } from './history-cache.js';
export { runGitCommand, boundedGitCommand, gitBinary, DEFAULT_GIT_BOUNDS, type GitBounds } from './git-process.js';
export { locateRepository, type LocatedRepository, type LocateOptions } from './local-repository.js';
export { readHeadPaths, MAX_HEAD_PATHS, type HeadPathsOptions } from './head-paths.js';
export {
  readHeadLines,
  readLineTree,
  blameFile,
  linesByCommit,
  LinesSkipped,
  BLAME_FLAGS,
  type HeadLines,
  type CommitLines,
  type MarkedLines,
  type HeadLinesOptions,
  type LineTree,
  type BlameGroup,
  type FileBlame,
} from './head-lines.js';
export {
  readLineRecords,
  parseTraceRecord,
  markedLines,
  recordedLines,
  isTraceFile,
  NO_LINE_RECORDS,
  UNNAMED_ASSISTANT,
  AGENT_TRACE_NOTES_REF,
  type LineRecords,
  type MarkedRange,
} from './line-records.js';
export { attributesOf, type PathAttributes } from './gitattributes.js';
export { readReworkedLines, REWORK_WINDOW_SECONDS, type ReworkOptions, type ReworkedLines } from './rework.js';
export { replayLedger, type Ledger, type LedgerOptions } from './history-ledger.js';
export type { CommitFileCounts, PassFiles } from './pass-counts.js';
export {
  readWholeHistoryPass,
  chargeRework,
  type WholeHistoryPass,
  type WholeHistoryOptions,
} from './whole-history-lines.js';
export { addedLinesOf, AddedLinesReading, type AddedLineReadings } from './added-lines.js';
export { readRangeAddedLines, type RangeReadings } from './range-added-lines.js';
export { defaultCacheRoot, keptLinesFile, loadKeptLines, saveKeptLines, type KeptLines } from './ledger-cache.js';
export { pinnedGitDir } from './git-process.js';
export { replayFirstParent, streamCommitDiffs, type FileDiff, type Deletion } from './line-replay.js';
export { openBlameCache, BLAME_CACHE_FILE, type BlameCache } from './blame-cache.js';
export {
  readAssistantSetup,
  assistantOfSetupPath,
  MAX_SETUP_FILES,
  type AssistantSetupFile,
} from './assistant-setup.js';
export {
  readRequestCommits,
  requestHeads,
  squashSubjects,
  DEFAULT_MAX_REQUESTS,
  MAX_COMMITS_PER_REQUEST,
  type ReadRequestCommitsOptions,
  type RequestHeadCommits,
  type SquashSubject,
} from './request-heads.js';
