/**
 * What `cadence config init --ci` writes (docs/ci.md shows the same). Third-party actions are
 * pinned by full commit, the tag beside it; the checkout keeps no token in .git/config.
 */

export function githubWorkflow(version: string): string {
  return `# Cadence on pull requests (docs/ci.md): a verdict, a job summary, SARIF for code scanning.
name: Cadence
on:
  pull_request:
permissions:
  contents: read
  security-events: write
jobs:
  cadence:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262 # v4.4.0
        with:
          fetch-depth: 0          # Cadence needs the whole history
          persist-credentials: false
      - id: cadence
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
            - npm install --prefix "$cli_dir" --ignore-scripts --no-save --no-audit --no-fund --no-update-notifier --loglevel=error "@cadence-detect/cli@\${CADENCE_VERSION}" >&2
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
