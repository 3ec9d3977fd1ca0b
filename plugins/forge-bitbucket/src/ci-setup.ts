import type { CiRunner } from '@cadence-detect/plugin-sdk';

/** `cadence ci bitbucket` and what `cadence config init --ci bitbucket` writes (docs/ci.md). */
export const bitbucketCi: CiRunner = {
  description: 'in a Bitbucket Pipelines step (what templates/bitbucket-pipelines.yml runs)',
  options: [
    {
      flags: '-o, --output <file>',
      description: 'the Code Insights report and annotations, as JSON',
      default: 'cadence-insights.json',
    },
    { flags: '--no-insights', description: 'do not send the Code Insights report to Bitbucket (it is still written)' },
  ],
  run: async (job) => (await import('./ci-runner.js')).runBitbucketCi(job),
  setupFiles: (version) => [
    {
      path: 'bitbucket-pipelines.yml',
      content: bitbucketPipelines(version),
      existing: () => ({
        advice: 'merge these lines into it (clone: depth: full, and the pull-requests pipeline)',
        lines: bitbucketAddition(version),
      }),
    },
  ],
};

/** The pull-request pipeline templates/bitbucket-pipelines.yml holds (a test keeps the two equal). */
function bitbucketStep(version: string): string {
  return `  pull-requests:
    '**':
      - step:
          name: Cadence
          script:
            - CADENCE_VERSION="${version}"
            - export CADENCE_FAIL_ON="\${CADENCE_FAIL_ON:-never}"
            - node_bin=$(command -v node)
            - cli_dir=$(mktemp -d)
            - cd "$cli_dir"
            - export npm_config_cache="$cli_dir/npm-cache"
            - npm install --prefix "$cli_dir" --ignore-scripts --no-save --no-audit --no-fund --no-update-notifier --loglevel=error "@cadence-detect/cli@\${CADENCE_VERSION}" "@cadence-detect/plugin-bitbucket@\${CADENCE_VERSION}" >&2
            - '"$node_bin" "$cli_dir/node_modules/@cadence-detect/cli/bin/cadence.js" ci bitbucket -o cadence-insights.json'
          artifacts:
            - cadence-insights.json
`;
}

/** A whole bitbucket-pipelines.yml running Cadence on pull requests (docs/ci.md, Bitbucket Pipelines). */
export function bitbucketPipelines(version: string): string {
  return `# Cadence on pull requests (docs/ci.md): a Code Insights report and a gate (CADENCE_FAIL_ON, a repository variable).
image: node:24
clone:
  depth: full          # Cadence needs the whole history
pipelines:
${bitbucketStep(version)}`;
}

/** What to add to an existing bitbucket-pipelines.yml: the clone depth and the pull-request pipeline. */
export function bitbucketAddition(version: string): string {
  return `clone:
  depth: full
pipelines:
${bitbucketStep(version)}`;
}
