import { parse as parseYaml } from './vendor/yaml.js';
import type { CiRunner } from '@cadence-detect/plugin-sdk';

/** `cadence ci gitlab` and what `cadence config init --ci gitlab` writes (docs/ci.md). */
export const gitlabCi: CiRunner = {
  description: 'in a GitLab CI job (what templates/cadence.gitlab-ci.yml runs)',
  options: [{ flags: '-o, --output <file>', description: 'the Code Quality report', default: 'gl-code-quality.json' }],
  run: async (job) => (await import('./ci-runner.js')).runGitlabCi(job),
  setupFiles: (version) => [
    {
      path: '.gitlab-ci.yml',
      content: gitlabInclude(version),
      existing(text) {
        // The template's job runs in `test`; a file whose own stages lack it would be refused by GitLab.
        const stages = declaredStages(text);
        const stage = stages && !stages.includes('test') ? pickStage(stages) : null;
        return {
          advice:
            stages && stage
              ? `it declares stages ${stages.join(', ')} without test: the cadence job below runs in ${stage} (or add test to stages:); add these lines to it`
              : 'add these lines to it',
          lines: gitlabInclude(version, stage ?? undefined),
        };
      },
    },
  ],
};

/** `stage`: the job's stage where the pipeline's own `stages:` lack the template's `test`. */
export function gitlabInclude(version: string, stage?: string): string {
  return `# Cadence on merge requests (docs/ci.md): a Code Quality report and a gate.
include:
  - remote: https://raw.githubusercontent.com/cadence-detect/cadence/v${version}/templates/cadence.gitlab-ci.yml

cadence:
${
  stage === undefined
    ? ''
    : `  stage: ${/^[\w.-]+$/.test(stage) ? stage : JSON.stringify(stage)}
`
}  variables:
    CADENCE_FAIL_ON: never        # or suspicious, likely_ai_generated
`;
}

/** The `stages:` a pipeline file declares, or null when it declares none (GitLab's defaults, test among them, apply) or cannot be read. */
function declaredStages(text: string): string[] | null {
  try {
    const document = parseYaml(text) as { stages?: unknown } | null;
    const stages = document?.stages;
    return Array.isArray(stages) && stages.every((s) => typeof s === 'string') ? stages : null;
  } catch {
    return null;
  }
}

/** A stage for the cadence job among a file's own: one that checks (verify, check, lint, review, qa), else the last before a deploy, else the first. */
function pickStage(stages: readonly string[]): string {
  const checking = stages.find((s) => /^(verify|validate|check|checks|lint|review|qa|quality|tests?)$/i.test(s));
  if (checking) return checking;
  const beforeDeploy = stages.findIndex((s) => /deploy|release|publish/i.test(s));
  return (beforeDeploy > 0 ? stages[beforeDeploy - 1] : stages[0]) ?? 'test';
}
