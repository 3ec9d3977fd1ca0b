import type { CiRunner } from '@cadence-detect/plugin-sdk';
import { actionsJobStart, runActionsCi } from '@cadence-detect/forge-kit';

/**
 * `cadence ci github`: what the Cadence action (action.yml) runs in a GitHub Actions job, and the
 * workflow `cadence config init --ci github` writes. Third-party actions are pinned by full commit,
 * the tag beside it; the checkout keeps no token in .git/config.
 */
export const githubCi: CiRunner = {
  description: 'in a GitHub Actions job (what the Cadence action runs)',
  run: (job) =>
    runActionsCi(job, {
      command: 'cadence ci github',
      system: 'GitHub Actions',
      deepen: 'Check out with the whole history: actions/checkout with `fetch-depth: 0`.',
    }),
  setupFiles: (version) => [{ path: '.github/workflows/cadence.yml', content: githubWorkflow(version) }],
};

export function githubWorkflow(version: string): string {
  return `# Cadence on pull requests (docs/ci.md): a verdict, a job summary, SARIF for code scanning.
${actionsJobStart('permissions:\n  contents: read\n  security-events: write\n')}      - id: cadence
        uses: cadence-detect/cadence@v${version}
        with:
          fail-on: never          # or suspicious, likely_ai_generated: fail the job from that verdict on
          sarif: cadence.sarif
      - uses: github/codeql-action/upload-sarif@dd903d2e4f5405488e5ef1422510ee31c8b32357 # v3.36.2
        if: always()
        with:
          sarif_file: cadence.sarif
          category: cadence
`;
}
