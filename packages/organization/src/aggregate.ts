import { redactCredentials } from '@cadence-detect/errors';
import {
  assessShare,
  authorKeys,
  DEFAULT_ASSESSMENT_BANDS,
  ERA_CHECK_BEFORE,
  monthlyShares,
  type AssessmentBands,
  type MonthlyShare,
  type MonthTotals,
  type RepositoryResult,
} from '@cadence-detect/plugin-sdk';
import type {
  OrganizationAuthor,
  OrganizationLines,
  OrganizationRepository,
  OrganizationResult,
} from './organization-result.js';

/** What one repository of a scan came to: its result (every author listed), or why it has none. */
export interface RepositoryOutcome {
  readonly repository: string;
  readonly url: string;
  readonly result?: RepositoryResult;
  readonly error?: { readonly code: string; readonly message: string };
  readonly report?: string;
}

/**
 * The organization result from its repositories' results. Every figure is counted over commits, not
 * averaged over repositories: a repository of 2,000 commits weighs a hundred times one of 20.
 * Authors are merged across repositories by the SDK's authorKeys (shared e-mails, names, GitHub logins); the results must list every
 * author (a repository request with `authors: 'all'`), else the figures cover only those listed.
 */
export function aggregateOrganization(
  organization: string,
  outcomes: readonly RepositoryOutcome[],
  options: { bands?: AssessmentBands; now?: Date } = {},
): OrganizationResult {
  const bands = options.bands ?? DEFAULT_ASSESSMENT_BANDS;
  const repositories = outcomes.map(repositoryEntry);
  const analyzed = outcomes.filter(
    (o): o is RepositoryOutcome & { result: RepositoryResult } => o.result !== undefined,
  );
  let weighted = 0;
  let scored = 0;
  const assistants: Record<string, number> = {};
  for (const { result } of analyzed) {
    weighted += result.ai_share * result.scored_commits;
    scored += result.scored_commits;
    addCounts(assistants, result.assistants);
  }
  const share = scored > 0 ? round(weighted / scored) : 0;
  const byAssessment = groupByAssessment(repositories);
  const pooled = assessShare(share, bands);
  return {
    organization,
    ai_share: share,
    assessment: pooled === 'clean' && byAssessment.clean.length < analyzed.length ? 'suspicious' : pooled,
    by_assessment: byAssessment,
    assessment_bands: { ...bands },
    total_commits: sum(repositories, (r) => r.total_commits),
    scored_commits: scored,
    flagged: sum(repositories, (r) => r.flagged),
    attributed: sum(repositories, (r) => r.attributed),
    automation_commits: sum(repositories, (r) => r.automation_commits),
    counts: { listed: outcomes.length, analyzed: analyzed.length, failed: outcomes.length - analyzed.length },
    repositories,
    authors: mergeAuthors(analyzed),
    months: mergeMonths(analyzed.map((o) => o.result.months ?? [])),
    assistants,
    ...organizationLines(repositories),
    generated_at: (options.now ?? new Date()).toISOString(),
  };
}

const two = (n: number): number => Math.round(n * 100) / 100;

/** The analysed repositories by their own assessment, most assistant-made first. */
function groupByAssessment(repositories: readonly OrganizationRepository[]): OrganizationResult['by_assessment'] {
  const groups: OrganizationResult['by_assessment'] = { likely_ai_generated: [], suspicious: [], clean: [] };
  for (const r of repositories)
    if (r.assessment && r.ai_share !== null)
      groups[r.assessment].push({ repository: r.repository, ai_share: r.ai_share });
  for (const list of Object.values(groups))
    list.sort((a, b) => b.ai_share - a.ai_share || a.repository.localeCompare(b.repository));
  return groups;
}
/** The repository's line totals the organization view keeps (its `era_check` only when measured). */
const LINE_FIELDS = ['counted', 'explicit', 'inferred', 'automation', 'human', 'outside', 'share'] as const;
const pickLines = (lines: OrganizationLines): OrganizationLines =>
  ({
    ...Object.fromEntries(LINE_FIELDS.map((field) => [field, lines[field]])),
    ...(lines.era_check ? { era_check: lines.era_check } : {}),
  }) as OrganizationLines;
const lineShare = (l: Omit<OrganizationLines, 'share'>): number | null => {
  const whole = l.counted - l.automation - l.outside;
  return whole > 0 ? Math.round(((l.explicit + l.inferred) / whole) * 10_000) / 10_000 : null;
};

/** The organization's code: every counted repository's lines summed, its share from the sums (a large repository weighs its lines). */
function organizationLines(repositories: readonly OrganizationRepository[]): {
  lines?: OrganizationLines & { repositories: number };
} {
  const counted = repositories.flatMap((r) => (r.lines ? [r.lines] : []));
  if (counted.length === 0) return {};
  const total = { counted: 0, explicit: 0, inferred: 0, automation: 0, human: 0, outside: 0 };
  for (const lines of counted) for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += lines[key];
  const summed = {
    counted: total.counted,
    explicit: total.explicit,
    inferred: two(total.inferred),
    automation: total.automation,
    human: two(total.human),
    outside: total.outside,
  };
  const floors = counted.map((lines) => lines.era_check).filter((e) => e !== undefined && e !== null);
  const era = floors.reduce(
    (sum, e) => ({ commits: sum.commits + e.commits, lines: sum.lines + e.lines, inferred: sum.inferred + e.inferred }),
    { commits: 0, lines: 0, inferred: 0 },
  );
  // The organization's floor for lines: the repositories' old lines summed, as the lines are.
  const eraCheck =
    era.lines > 0
      ? {
          era_check: {
            before: ERA_CHECK_BEFORE,
            ...era,
            inferred: two(era.inferred),
            share: Math.round((era.inferred / era.lines) * 10_000) / 10_000,
          },
        }
      : {};
  return { lines: { ...summed, share: lineShare(summed), ...eraCheck, repositories: counted.length } };
}

function repositoryEntry(outcome: RepositoryOutcome): OrganizationRepository {
  const r = outcome.result;
  return {
    // A listed URL may carry a user and password (`https://user:token@host/…`): never into a result.
    repository: redactCredentials(outcome.repository),
    url: redactCredentials(outcome.url),
    assessment: r?.assessment ?? null,
    ai_share: r?.ai_share ?? null,
    total_commits: r?.total_commits ?? 0,
    scored_commits: r?.scored_commits ?? 0,
    flagged: r?.suspicious_commits ?? 0,
    attributed: r?.attributed_commits ?? 0,
    automation_commits: r?.automation_commits ?? 0,
    error: r ? null : { code: outcome.error?.code ?? 'ERR_INTERNAL', message: outcome.error?.message ?? 'no result' },
    ...(r?.lines ? { lines: pickLines(r.lines) } : {}),
    ...(outcome.report !== undefined ? { report: outcome.report } : {}),
  };
}

function mergeAuthors(analyzed: readonly { repository: string; result: RepositoryResult }[]): OrganizationAuthor[] {
  const byEmail = new Map<string, OrganizationAuthor & { weighted: number }>();
  // One person across repositories: shared e-mails, names and GitHub no-reply logins (the SDK's rule, as each repository's result applies it).
  const keyOf = authorKeys(
    analyzed.flatMap(({ result }) => result.authors.map((a) => ({ name: a.author, email: a.email }))),
  );
  for (const { repository, result } of analyzed) {
    for (const a of result.authors) {
      const key = keyOf({ name: a.author, email: a.email });
      let merged = byEmail.get(key);
      if (!merged) {
        merged = {
          author: a.author,
          email: a.email,
          commits: 0,
          attributed: 0,
          flagged: 0,
          share: 0,
          scored_commits: 0,
          assistants: {},
          repositories: [],
          weighted: 0,
        };
        byEmail.set(key, merged);
      }
      // A 1.6 result has no per-author scored count: its commits stand in.
      const authorScored = a.scored_commits ?? a.commits;
      merged.commits += a.commits;
      merged.attributed += a.attributed;
      merged.flagged += a.flagged;
      merged.scored_commits += authorScored;
      merged.weighted += a.share * authorScored;
      addCounts(merged.assistants, a.assistants ?? {});
      if (!merged.repositories.includes(repository)) merged.repositories.push(repository);
    }
  }
  return [...byEmail.values()]
    .map(({ weighted, ...a }) => ({ ...a, share: a.scored_commits > 0 ? round(weighted / a.scored_commits) : 0 }))
    .sort((a, b) => b.commits - a.commits || a.email.localeCompare(b.email));
}

/** Months merged by their scored commits, so each month's parts still add up to its share. */
export function mergeMonths(series: readonly (readonly MonthlyShare[])[]): MonthlyShare[] {
  const byMonth = new Map<string, MonthTotals>();
  for (const months of series) {
    for (const m of months) {
      const t = byMonth.get(m.month) ?? { commits: 0, scored: 0, explicit: 0, inferred: 0, assistants: {} };
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- A result kept before months counted their scored commits has none
      const monthScored = m.scored_commits ?? m.commits;
      t.commits += m.commits;
      t.scored += monthScored;
      t.explicit += m.explicit_share * monthScored;
      t.inferred += m.inferred_share * monthScored;
      addCounts(t.assistants, m.assistants);
      byMonth.set(m.month, t);
    }
  }
  return monthlyShares(byMonth);
}

function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [name, count] of Object.entries(from)) into[name] = (into[name] ?? 0) + count;
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((total, item) => total + of(item), 0);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
