import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { displayLine } from '@cadence-detect/reports/display-text';

/** One entry of GitLab's Code Quality report (the CodeClimate-based format GitLab reads). */
export interface CodeQualityIssue {
  readonly description: string;
  readonly check_name: string;
  readonly fingerprint: string;
  readonly severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  readonly location: { readonly path: string; readonly lines: { readonly begin: number } };
}

const CHECK = 'cadence/commit';

/**
 * The flagged commits as Code Quality issues: `info` for explicitly attributed commits (a
 * disclosure), `minor` for inferred ones, `major` when the verdict reaches the fail-on level. Each
 * points at the commit's most-changed file that still exists at the analysed head, line 1 (findings
 * carry files, not lines); a commit none of whose files remain is left out and counted.
 */
export function codeQualityReport(
  result: RepositoryResult,
  checkoutDir: string,
  gateReached: boolean,
): { issues: CodeQualityIssue[]; withoutLocation: number } {
  const issues: CodeQualityIssue[] = [];
  let withoutLocation = 0;
  for (const suspicion of result.suspicions) {
    // The files the analysis found at its head (as SARIF locates them); the checkout's own files when the source did not list them.
    const candidates =
      suspicion.files_at_head ?? (suspicion.files ?? []).filter((f) => existsSync(path.join(checkoutDir, f)));
    const file = candidates.find((f) => !path.isAbsolute(f) && !f.split('/').includes('..'));
    if (!file) {
      withoutLocation++;
      continue;
    }
    const severity = gateReached ? 'major' : suspicion.evidence === 'explicit' ? 'info' : 'minor';
    const subject = displayLine(suspicion.message.split('\n')[0] ?? '').slice(0, 120);
    issues.push({
      description: `Commit ${suspicion.commit_hash} (${subject}) looks assistant-made: ${suspicion.reasons
        .map((r) => displayLine(r))
        .join('; ')
        .slice(0, 500)}`,
      check_name: CHECK,
      fingerprint: createHash('sha256').update(`${CHECK}\0${suspicion.commit}`).digest('hex'),
      severity,
      location: { path: file, lines: { begin: 1 } },
    });
  }
  return { issues, withoutLocation };
}
