import { stringify } from './vendor/yaml.js';
import { isRecord, redactCredentials } from '@cadence-detect/errors';
import type { PluginConfigView } from '@cadence-detect/plugin-sdk';
import { pluginSecretLocations, type PluginSection } from './plugin-sections.js';
import { SECRET_KEYS, type CadenceConfig } from './schema.js';

export const MASK = '****';

/**
 * A copy with every secret replaced by `****` (unset secrets stay null): the host's own, the options
 * the loaded plugins mark secret, and every value of a plugin section no loaded plugin owns. Without
 * `sections` (plugins not loaded) every plugin section is masked whole.
 */
export function maskSecrets(config: CadenceConfig, sections?: readonly PluginSection[]): CadenceConfig {
  const copy = structuredClone(config);
  // The copy walked by key: a plain object throughout (a configuration is parsed data).
  const root: Record<string, unknown> = copy;
  const locations = [...SECRET_KEYS.map((key) => key.split('.')), ...pluginSecretLocations(config, sections)];
  for (const location of locations) {
    const path = [...location];
    const name = path.pop() ?? '';
    let section: Record<string, unknown> | undefined = root;
    for (const part of path) {
      const inner: unknown = section?.[part];
      section = isRecord(inner) ? inner : undefined;
    }
    if (section?.[name] !== undefined && section[name] !== null && section[name] !== '') section[name] = MASK;
  }
  // The Redis URL is shown (which Redis is in use matters), its password is not.
  if (typeof copy.redis.url === 'string') copy.redis.url = redactCredentials(copy.redis.url);
  return copy;
}

/** What `cadence config` prints: the effective configuration as YAML, secrets masked. */
export function renderConfigYaml(config: CadenceConfig, sections?: readonly PluginSection[]): string {
  return stringify(maskSecrets(config, sections), { lineWidth: 0 });
}

/**
 * The read-only view every plugin gets (PluginConfigView of the plugin SDK): no plugin's section,
 * so no secret of any plugin's (the AI plugin's settings reach it alone, as its options).
 */
export function toPluginConfigView(config: CadenceConfig): PluginConfigView {
  return Object.freeze({
    thresholds: { ...config.thresholds },
    exclude_files: [...config.exclude_files],
    exclude_authors: [...config.exclude_authors],
    strategies: { disabled: [...config.strategies.disabled] },
  });
}

/**
 * The commented `.cadence.yaml` that `cadence config init` writes: the analysis data a project file
 * may set, at their defaults, then every other section commented out (they take effect only in a
 * file the user chose: `--config`, or the user's own configuration file). `pluginSections` are the
 * top-level sections plugins own (`pluginSectionTemplates`: the AI plugin's `ai`), commented out
 * after the core's.
 */
export function configInitTemplate(pluginSections: readonly string[] = []): string {
  return `# Cadence project configuration (docs/configuration.md has every key).
# Precedence: command-line flags > environment (CADENCE_*) > your own file (--config, else
# ~/.config/cadence/config.yaml) > this file > defaults.
# YAML or JSON only: a configuration never runs code. Found by searching from the working directory,
# this file sets analysis data only: thresholds, exclude_files, exclude_authors, assessment, strategies, report.

# Commit-pattern thresholds (these are the defaults).
thresholds:
  suspicious_additions: 500      # lines added in one commit
  suspicious_deletions: 1000     # lines deleted in one commit
  max_additions_per_min: 100     # lines added per minute since the author's previous commit
  max_deletions_per_min: 500
  min_time_delta_seconds: 60     # seconds between an author's commits

# Files left out of every line count (lock files, vendored and generated paths by default).
# Setting this list replaces the defaults.
# exclude_files: ["package-lock.json", "yarn.lock", "**/vendor/**", "**/node_modules/**"]

# Authors whose commits are automation, by name or e-mail glob (case-insensitive): never flagged,
# left out of the assistant share. Bot accounts (dependabot, renovate, release bots) already are.
# exclude_authors: ["*@ci.example.com", "Release Robot"]

# Where the share of assistant-made commits turns into a verdict.
assessment:
  suspicious: 0.15
  likely_ai_generated: 0.5

strategies:
  disabled: []                   # strategy names to skip

report:
  fail_on: never                 # never | suspicious | likely_ai_generated: when a forge status fails

# ---------------------------------------------------------------------------------------------
# Settings below take effect only in a file you choose: pass it with --config, or keep it as
# ~/.config/cadence/config.yaml. In this file they are ignored with a warning, because a file found
# in the working directory may be a cloned repository's. Copy them there and remove the "# ".
# ---------------------------------------------------------------------------------------------
${[SERVER_SETTINGS, ...pluginSections].join('\n').replace(/^(?=.)/gm, '# ')}`;
}

/** The sections only a chosen file sets, at their defaults (commented out in the init template). */
export const SERVER_SETTINGS = `webhook:
  enabled: true
  host: 0.0.0.0
  port: 8000
  # secret: set CADENCE_WEBHOOK_SECRET instead of writing it here (64+ random characters)
  maxWorkers: 4
  read_timeout_seconds: 30       # per request (--timeout); streams are exempt
  write_timeout_seconds: 30

logging:
  level: info                    # debug | info | warn | error
  format: json
  output: stdout                 # stdout | stderr

limits:
  job_timeout_seconds: 300
  clone_timeout_seconds: 120
  queue_capacity: 1000           # waiting jobs before 503 overloaded
  max_jobs: 10000                # jobs kept in memory
  max_repo_size_mb: 2048
  max_diff_blob_mb: 16           # larger blobs count as binary, without a line diff
  max_page_bytes: 10485760
  shutdown_grace_seconds: 25
  fetch_timeout_seconds: 20
  strategy_timeout_seconds: 30
  stream_keepalive_seconds: 15   # a ": keep-alive" comment on quiet streams
  max_open_streams: 100          # SSE streams open at once; 503 beyond
  max_unverified_webhook_bytes: 104857600  # webhook bodies buffered before their signature is checked, all together (one client at most max(25 MiB, this/8))
  max_connections_per_client: 256  # connections one address may hold open (503 beyond; trusted proxies exempt with api.trust_proxy)
  job_ttl_seconds: 604800        # how long a finished job stays in a Redis store (7 days)
  scan_timeout_seconds: 21600    # an organization scan's own limit (6 h); its repository jobs keep job_timeout_seconds

scans:
  allowed_owners: []             # forge:owner globs a scan may name, e.g. ["github:acme", "gitlab:platform/*"]; none: no forge scan
  max_queued_children: 4         # a scan's repository jobs on the queue at once
  schedule: []                   # e.g. [{target: "github:acme", every: 24h}]; on Redis each fires once across servers

queue:
  backend: memory                # memory (this process) | redis (shared by servers and cadence workers)
  stall_timeout_seconds: 30      # a worker silent this long loses its job: retried once, then ERR_WORKER_LOST
  dashboard: false               # bull-board at /admin/queues, behind the API token (redis backend)

redis:
  # url: set CADENCE_REDIS_URL (redis://[user:password@]host:port[/db]; default redis://127.0.0.1:6379)
  key_prefix: cadence            # every key and queue name starts with it

rate_limits:
  webhooks_per_minute: 100
  job_queries_per_minute: 1000
  metrics_per_minute: 10000
  analyses_per_minute: 60        # /api/analyze/* and /api/stream/*, per client address

security:
  allow_local_paths: false       # let API requests analyze paths on this server
  allow_private_networks: false  # let API requests reach private, loopback and link-local addresses
  allowed_networks: []           # CIDRs allowed anyway, e.g. ["10.1.2.3/32"]

api:
  # token: set CADENCE_API_TOKEN to require "Authorization: Bearer <token>"
  public_metrics: false
  trust_proxy: false             # take the client address from X-Forwarded-For
  trusted_proxies: ["127.0.0.0/8", "::1/128"]  # proxies whose X-Forwarded-For entries are believed
  allowed_origins: []            # browser origins (besides the server's own) that may start analyses
  allowed_hosts: []              # without a token: names browsers may use (IP addresses, localhost and server.public_url's host always)

cache:
  max_size: 500m
  # repositories_dir: /var/cache/cadence   # repository mirrors (default: <OS temp folder>/cadence-mirrors)
  repositories_max_size: 5g      # mirrors together; least recently used go first; 0: a fresh clone per job

git:
  depth: 0                       # 0: full history; n: shallow clones of n commits

plugins: []                      # package names or paths of plugins to load
`;
