import type { RepositoryResult } from './result.js';

/**
 * A forge's CI runner: what `cadence ci <forge>` runs inside that forge's CI job. It reads its CI's
 * own variables and event, asks the host for the analysis of the change (`job.analyze`), writes its
 * CI's outputs and reports, and ends with the gate (`job.gate`). The host owns everything
 * forge-neutral: the checkout's checks, the configuration read at the base commit, the engine,
 * SARIF, the exit codes. docs/forges.md, Adding a forge.
 * @since 2.0
 */
export interface CiRunner {
  /** One line for `cadence ci --help`: which CI job this runs in. */
  readonly description: string;
  /**
   * The runner's own options, besides those every runner takes (`--path`, `--fail-on`,
   * `--config`, `--sarif`, `--base`): commander's flag syntax (`-o, --output <file>`, `--no-insights`).
   */
  readonly options?: readonly CiOption[];
  /** The files `cadence config init --ci <forge>` writes: a workflow or pipeline at `cliVersion`. */
  setupFiles?(cliVersion: string): readonly CiSetupFile[];
  run(job: CiJob): Promise<void>;
}

/** One option of a runner's command. */
export interface CiOption {
  /** As commander takes it: `-o, --output <file>`, `--no-insights`. */
  readonly flags: string;
  readonly description: string;
  readonly default?: string;
}

/** One file of a CI set-up, written where the user runs `cadence config init --ci <forge>`. */
export interface CiSetupFile {
  /** Relative, `/`-separated: `.github/workflows/cadence.yml`. */
  readonly path: string;
  readonly content: string;
  /**
   * When the file exists already: absent, it is refused unless `--force` (then overwritten); given,
   * the file is never rewritten, and what this returns is printed instead (what to add to it, the
   * existing text read to say how).
   */
  existing?(text: string): { readonly advice: string; readonly lines: string };
}

/** The command's values (`--path`, `--fail-on`…, camel-cased as commander gives them) and the process's surroundings. */
export interface CiJob {
  /** Given options by camel-cased name (`failOn`, `output`); a `--no-x` flag is `false` when given. */
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  /** The CI job's environment: where the runner reads its CI's variables. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /**
   * The change's analysis: its commits (base..head) judged against the history before them, with
   * configuration the change cannot write (docs/ci.md), SARIF written when asked. Rejects with an
   * error that ends the command by its exit code (a shallow checkout, a base not in the history…).
   */
  analyze(request: CiRequest): Promise<CiOutcome>;
  /**
   * Writes a report at `file`, resolved against `workspace`, never through a symbolic link the
   * change committed (refused with exit 2). Resolves with the file's path.
   */
  writeReport(workspace: string, file: string, text: string): Promise<string>;
  /** An error to throw for a misuse the runner finds (exit 2, its message on one line). */
  usage(message: string): Error;
  /** Ends the job by its gate: throws (exit 3) when the verdict reached the fail-on level. */
  gate(outcome: CiOutcome): void;
}

/** What a CI job asks for, once the runner has read its CI's variables. */
export interface CiRequest {
  /** The CI's workspace: relative paths (the repository, reports, a configuration file) resolve from it. */
  readonly workspace: string;
  /** The repository, relative to the workspace. */
  readonly path: string;
  /** The commit the change starts from (a pull request's base), or null: the whole history. */
  readonly base: string | null;
  /** The change's head, or null: the checkout's HEAD. */
  readonly head: string | null;
  /** `never`, `suspicious` or `likely_ai_generated` as the user gave it (checked by the host), or undefined: `report.fail_on`. */
  readonly failOn?: string;
  readonly config?: string;
  readonly sarif?: string;
  /** How to fetch the whole history, in the CI's own words: what a shallow checkout's error says. */
  readonly deepen: string;
  /** Variables of the CI job that the configuration must not read as Cadence settings (GitLab's `GIT_DEPTH`). */
  readonly ignoreVariables?: readonly string[];
}

/** The analysis of a change, for the runner to report. */
export interface CiOutcome {
  readonly result: RepositoryResult;
  /** The working tree's top level and the range analysed (the base is null: the whole history). */
  readonly checkout: { readonly dir: string; readonly base: string | null; readonly head: string };
  /** The level the gate used (the request's, else `report.fail_on`), or null: never fails. */
  readonly failOn: 'suspicious' | 'likely_ai_generated' | null;
  readonly gateReached: boolean;
}
