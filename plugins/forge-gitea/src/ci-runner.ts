import type { CiRunner } from '@cadence-detect/plugin-sdk';
import { actionsJobStart, runActionsCi } from '@cadence-detect/forge-kit';

/**
 * `cadence ci gitea`: a Gitea or Forgejo Actions job. Their runners set GitHub's variable names
 * (GITHUB_WORKSPACE, GITHUB_EVENT_PATH, GITHUB_OUTPUT…) and write the same pull request events, so the
 * run is the Actions run GitHub's plugin uses, with Gitea's words; SARIF is written when asked
 * (Gitea shows no code scanning: keep it as an artifact).
 */
export const giteaCi: CiRunner = {
  description: 'in a Gitea or Forgejo Actions job',
  run: (job) =>
    runActionsCi(job, {
      command: 'cadence ci gitea',
      system: 'Gitea or Forgejo Actions',
      deepen: 'Check out with the whole history: actions/checkout with `fetch-depth: 0`.',
    }),
  setupFiles: (version) => [{ path: '.gitea/workflows/cadence.yml', content: giteaWorkflow(version) }],
};

/**
 * The workflow: the CLI and this plugin installed at one version into a fresh folder, run by absolute
 * path (nothing of the pull request's checkout chooses what runs: docs/ci.md). Actions pinned by
 * full commit, the tag beside it.
 */
export function giteaWorkflow(version: string): string {
  return `# Cadence on pull requests (docs/ci.md): a verdict, a job summary and a gate, in Gitea or Forgejo Actions.
${actionsJobStart()}      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020 # v4.4.0
        with:
          node-version: 24
      - name: Cadence
        env:
          CADENCE_VERSION: "${version}"
          INPUT_FAIL_ON: never    # or suspicious, likely_ai_generated: fail the job from that verdict on
        run: |
          node_bin=$(command -v node)
          cli_dir=$(mktemp -d)
          cd "$cli_dir"
          export npm_config_cache="$cli_dir/npm-cache"
          npm install --prefix "$cli_dir" --ignore-scripts --no-save --no-audit --no-fund --no-update-notifier --loglevel=error "@cadence-detect/cli@\${CADENCE_VERSION}" "@cadence-detect/plugin-gitea@\${CADENCE_VERSION}" >&2
          "$node_bin" "$cli_dir/node_modules/@cadence-detect/cli/bin/cadence.js" ci gitea
`;
}
