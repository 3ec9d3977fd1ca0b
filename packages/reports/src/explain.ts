import {
  ERA_CHECK_BEFORE,
  ERA_CHECK_MIN_COMMITS,
  type LinesAtHead,
  type RepositoryAssessment,
  type RepositoryResult,
  type Severity,
  type Thresholds,
  type WebsiteResult,
} from '@cadence-detect/plugin-sdk';

/**
 * What a repository report says its numbers mean, written once for the text and HTML reports
 * (docs/scoring.md is the long form). Plain strings: each renderer escapes them its own way.
 */

/** The badge colour follows the assessment, never the raw score: "clean" is green, whatever else. */
/**
 * The false-alarm floor in words. The share is compared with the era's mean probability, not its
 * flagged rate: `ai_share` is itself a mean of probabilities.
 */
export function eraCheckSentence(r: RepositoryResult): string | null {
  const e = r.era_check;
  if (e === undefined) return null;
  if (e === null)
    return `False-alarm floor: none: fewer than ${ERA_CHECK_MIN_COMMITS} commits from before assistants existed (before ${ERA_CHECK_BEFORE}) to measure it on.`;
  const floor = `${(e.mean_probability * 100).toFixed(1)}%`;
  return `False-alarm floor: the ${e.commits.toLocaleString('en')} commits from before assistants existed (before ${e.before}) read ${floor} assistant-made on average, ${e.flagged.toLocaleString('en')} (${(e.rate * 100).toFixed(1)}%) flagged: an assistant share below about ${floor} is noise here.`;
}

/**
 * The lines' false-alarm floor in words: the share inference gives code written before assistants
 * existed, to read `lines.share` against.
 */
export function linesEraSentence(l: LinesAtHead): string | null {
  const e = l.era_check;
  if (e === undefined) return null;
  if (e === null)
    return `False-alarm floor for lines: none: fewer than ${ERA_CHECK_MIN_COMMITS} commits from before assistants existed (before ${ERA_CHECK_BEFORE}) wrote lines still here.`;
  const floor = `${(e.share * 100).toFixed(1)}%`;
  return `False-alarm floor for lines: the ${Math.round(e.lines).toLocaleString('en')} lines here written before assistants existed (before ${e.before}, ${e.commits.toLocaleString('en')} commits) read ${floor} assistant-made: a line share below about ${floor} is noise here.`;
}

export function assessmentSeverity(assessment: RepositoryAssessment): Severity {
  return assessment === 'likely_ai_generated' ? 'high' : assessment === 'suspicious' ? 'medium' : 'low';
}

export function flaggedCounts(r: RepositoryResult): {
  flagged: number;
  explicit: number;
  inferred: number;
  share: number;
} {
  const explicit = r.suspicions.filter((s) => s.evidence === 'explicit').length;
  const flagged = r.suspicions.length;
  return {
    flagged,
    explicit,
    inferred: flagged - explicit,
    share: r.scored_commits > 0 ? flagged / r.scored_commits : 0,
  };
}

export function scoreMeaning(r: RepositoryResult): string[] {
  const bands = r.assessment_bands;
  const lines = [
    `ai_share ${r.ai_share.toFixed(2)}: the mean, over ${r.scored_commits} scored commits, of each commit's probability of having been made with an assistant (1 for a commit whose history says so outright).`,
    `Bands: clean below ${bands.suspicious.toFixed(2)}, suspicious from ${bands.suspicious.toFixed(2)}, likely_ai_generated from ${bands.likely_ai_generated.toFixed(2)} (configuration assessment.*).`,
  ];
  if (Math.abs(r.overall_score - r.ai_share) >= 0.0005) {
    lines.push(
      `The AI second opinion moved the overall score from ${r.ai_share.toFixed(2)} to ${r.overall_score.toFixed(2)}; the assessment follows the overall score.`,
    );
  }
  if (r.squash) {
    lines.push(
      r.squash.judged_by === 'request'
        ? `The pushed commit ${r.squash.commit.slice(0, 12)} squashes request ${r.squash.request}: judged by the request's ${r.total_commits} original commits.`
        : `The pushed commit ${r.squash.commit.slice(0, 12)} squashes request ${r.squash.request}, whose original commits could not be used (${r.squash.reason ?? 'unavailable'}): judged as itself, with the squash discount.`,
    );
  }
  if (r.oversized_files) {
    const o = r.oversized_files;
    lines.push(
      `${o.files} ${o.files === 1 ? 'file was' : 'files were'} larger than ${o.max_diff_blob_mb} MiB (limits.max_diff_blob_mb): counted as binary, without a line diff, in no line count.`,
    );
  }
  if (r.unreadable_commits) {
    const files = r.unreadable_files ?? [];
    lines.push(
      `The repository lacks versions of ${files.length === 1 ? '1 file' : `${files.length} files`} (${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''}): a damaged or partial clone. ${r.unreadable_commits} ${r.unreadable_commits === 1 ? 'commit was' : 'commits were'} judged without ${files.length === 1 ? 'its' : 'their'} lines, and ${files.length === 1 ? 'it is' : 'they are'} in no line count.`,
    );
  }
  const setup = assistantSetupSentence(r);
  if (setup) lines.push(setup);
  const counts = flaggedCounts(r);
  lines.push(
    `${counts.flagged} of ${r.scored_commits} scored commits flagged (${(counts.share * 100).toFixed(1)}%): ${counts.explicit} by explicit attribution, ${counts.inferred} inferred.`,
  );
  lines.push(
    r.scoring === 'model'
      ? `Each commit's confidence is the commit model's calibrated probability (flagged from ${(r.flag_at ?? 0).toFixed(2)}); the velocity, timing and size findings are its reasons, and count on their own only where the thresholds were changed from their defaults.`
      : 'No calibrated strategy is enabled: each commit\u2019s confidence combines its strategies\u2019 findings (1 - product of 1 - confidence); flagged from 0.25.',
  );
  return lines;
}

export function thresholdsLine(t: Thresholds): string {
  return `Thresholds in force: suspicious_additions ${t.suspicious_additions}, suspicious_deletions ${t.suspicious_deletions}, max_additions_per_min ${t.max_additions_per_min}, max_deletions_per_min ${t.max_deletions_per_min}, min_time_delta_seconds ${t.min_time_delta_seconds} (velocity floors intervals at 30 s; "lines" means additions plus deletions).`;
}

export function assistantsLine(r: RepositoryResult): string {
  const entries = Object.entries(r.assistants).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0)
    return 'Attributed commits: none (no trailer, footer, agent account, note or agent branch names an assistant).';
  return `Attributed commits: ${r.attributed_commits} (${entries.map(([name, n]) => `${name} ${n}`).join(', ')}).`;
}

/** The evidence a finding rests on, as reports show it. */
export function evidenceLabel(evidence: 'explicit' | 'inferred' | 'automation' | undefined): string {
  return evidence === 'explicit' || evidence === 'automation' ? evidence : 'inferred';
}

/** The page model's numbers as the engine merged them into `result.metrics` (strategy `page-model`). */
function pageModelMetric(r: WebsiteResult, key: string): number | undefined {
  const value = r.metrics[`page-model_${key}`];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * What a page's score means: where it came from (the page model's calibrated probability, or the
 * signals' weighted mean when no model is shipped), how the model was validated, and the bands.
 */
export function pageScoreMeaning(r: WebsiteResult): string[] {
  const lines: string[] = [];
  const probability = pageModelMetric(r, 'probability');
  if (probability === undefined) {
    lines.push(
      `Page score ${r.overall_score.toFixed(2)}: the weight-averaged score of the website strategies (no calibrated page model ran).`,
    );
  } else {
    lines.push(
      `Page score ${r.overall_score.toFixed(2)}: the page model's calibrated probability that a language model wrote the page is ${probability.toFixed(2)}${Math.abs(probability - r.overall_score) >= 0.005 ? `; other strategies and floors (assistant leftovers, stock phrases) moved it to ${r.overall_score.toFixed(2)}` : ''}.`,
    );
    const auc = pageModelMetric(r, 'validation_auc');
    const pages = pageModelMetric(r, 'validation_pages');
    const humanShare = pageModelMetric(r, 'validation_human_at_0_4');
    if (auc !== undefined && pages !== undefined) {
      lines.push(
        `The model was validated leave one topic out on ${pages} pages of the development corpus: AUC ${auc.toFixed(2)}${humanShare !== undefined ? `, ${(humanShare * 100).toFixed(0)}% of its human pages scored 0.4 or more` : ''}. Short pages, heavily edited text and paraphrased text are beyond it (docs/website-analysis.md).`,
      );
    }
    if (pageModelMetric(r, 'too_short') === 1)
      lines.push('The page is too short for the model to say much: its probability stays low whoever wrote it.');
    if (pageModelMetric(r, 'too_little_prose') === 1)
      lines.push(
        'The page is mostly lists, tables or code, with too little paragraph prose for the model, which was validated on prose: its probability stays low whoever wrote it.',
      );
  }
  lines.push('Bands: Likely Human-Written below 0.40, Suspicious Activity from 0.40, Likely AI-Generated from 0.70.');
  return lines;
}

/** The page's strongest signals: the signal strategies' detections, strongest first. */
export function strongestPageSignals(
  r: WebsiteResult,
  limit = 5,
): { strategy: string; message: string; score: number }[] {
  return r.detections
    .filter((d) => d.strategy !== 'page-model')
    .slice()
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((d) => ({ strategy: d.strategy, message: d.message, score: d.score }));
}

/** Which assistants the tree is set up for, by their files (`assistant_setup`), or null when none: reported, not scored. */
export function assistantSetupSentence(r: RepositoryResult): string | null {
  const files = r.assistant_setup ?? [];
  if (files.length === 0) return null;
  const byAssistant = new Map<string, typeof files>();
  for (const file of files) byAssistant.set(file.assistant, [...(byAssistant.get(file.assistant) ?? []), file]);
  const parts = [...byAssistant].map(([assistant, of]) => {
    const shown = of.slice(0, 3).map((file) => {
      const since = file.first_date ? `, added ${file.first_date.slice(0, 10)}` : '';
      const by =
        file.authors.length > 0
          ? ` by ${file.authors.slice(0, 3).join(', ')}${file.authors.length > 3 ? ', …' : ''}`
          : '';
      return `${file.path}${since}, ${file.commits} ${file.commits === 1 ? 'commit' : 'commits'}${by}`;
    });
    return `${assistant} (${shown.join('; ')}${of.length > 3 ? `; ${of.length - 3} more` : ''})`;
  });
  return `The tree is set up for ${parts.join(', ')}: its files say which assistants a project expects, not which wrote a commit (not scored).`;
}
