import { Type, type Static } from '@cadence-detect/plugin-sdk/typebox';
import { DEFAULT_THRESHOLDS } from '@cadence-detect/plugin-sdk';
import { isRecord } from '@cadence-detect/errors';

/**
 * Every configuration key (the interface's table and docs/configuration.md), with its type and default.
 * Keys in the interface keep its spelling (`webhook.maxWorkers`, `ai.baseUrl`); ours are snake_case.
 */
const NonNegativeInt = (defaultValue: number) => Type.Integer({ minimum: 0, default: defaultValue });
const PositiveInt = (defaultValue: number) => Type.Integer({ minimum: 1, default: defaultValue });
const PositiveNumber = (defaultValue: number) => Type.Number({ exclusiveMinimum: 0, default: defaultValue });
const OptionalSecret = Type.Union([Type.String(), Type.Null()], { default: null });
const OptionalString = Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null });
const Strings = (defaults: readonly string[], options: Record<string, unknown> = {}) =>
  Type.Array(Type.String({ minLength: 1 }), { ...options, default: [...defaults] });
/**
 * Marks a section that a project file found by searching from the working directory may set: what
 * to count and how to judge it, never what code runs, where requests go or which secrets go along.
 */
const PROJECT_DATA = { projectFile: true } as const;

/** Lock files, dependency and vendored folders, build output, minified and generated files. */
export const DEFAULT_EXCLUDE_FILES: readonly string[] = Object.freeze([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'Cargo.lock',
  'go.sum',
  'composer.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'Gemfile.lock',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'packages.lock.json',
  'flake.lock',
  'gradle.lockfile',
  '**/node_modules/**',
  '**/vendor/**',
  '**/third_party/**',
  '**/third-party/**',
  '**/bower_components/**',
  '**/dist/**',
  '**/build/**',
  '**/out/**',
  '**/target/**',
  '**/.next/**',
  '**/coverage/**',
  '*.min.js',
  '*.min.css',
  '*.map',
  '*.snap',
  '*.pb.go',
  '*_pb2.py',
  '*.generated.*',
  '*.g.dart',
  '*.designer.cs',
]);

export const ConfigSchema = Type.Object(
  {
    /**
     * The AI plugin's settings (`@cadence-detect/plugin-ai-assist`), checked against its own options
     * schema once it loads: the host keeps the file key, never reads the values.
     */
    ai: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
    webhook: Type.Object(
      {
        enabled: Type.Boolean({ default: true }),
        host: Type.String({ minLength: 1, default: '0.0.0.0' }),
        port: Type.Integer({ minimum: 0, maximum: 65535, default: 8000 }),
        secret: OptionalSecret,
        /** 0: intake only (needs queue.backend: redis and `cadence worker` processes). */
        maxWorkers: NonNegativeInt(4),
        read_timeout_seconds: PositiveNumber(30),
        write_timeout_seconds: PositiveNumber(30),
      },
      { additionalProperties: false, default: {} },
    ),
    thresholds: Type.Object(
      {
        suspicious_additions: NonNegativeInt(DEFAULT_THRESHOLDS.suspicious_additions),
        suspicious_deletions: NonNegativeInt(DEFAULT_THRESHOLDS.suspicious_deletions),
        max_additions_per_min: NonNegativeInt(DEFAULT_THRESHOLDS.max_additions_per_min),
        max_deletions_per_min: NonNegativeInt(DEFAULT_THRESHOLDS.max_deletions_per_min),
        min_time_delta_seconds: NonNegativeInt(DEFAULT_THRESHOLDS.min_time_delta_seconds),
      },
      { ...PROJECT_DATA, additionalProperties: false, default: {} },
    ),
    /** Where the repository's ai_share turns into an assessment (docs/scoring.md). */
    assessment: Type.Object(
      {
        suspicious: Type.Number({ minimum: 0, maximum: 1, default: 0.15 }),
        likely_ai_generated: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
      },
      { ...PROJECT_DATA, additionalProperties: false, default: {} },
    ),
    exclude_files: Strings(DEFAULT_EXCLUDE_FILES, PROJECT_DATA),
    /** Authors (name or e-mail globs) whose commits count as automation (docs/scoring.md). */
    exclude_authors: Strings([], PROJECT_DATA),
    logging: Type.Object(
      {
        level: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')], {
          default: 'info',
        }),
        format: Type.Literal('json', { default: 'json' }),
        output: Type.Union([Type.Literal('stdout'), Type.Literal('stderr')], { default: 'stdout' }),
      },
      { additionalProperties: false, default: {} },
    ),
    limits: Type.Object(
      {
        job_timeout_seconds: PositiveNumber(300),
        clone_timeout_seconds: PositiveNumber(120),
        queue_capacity: NonNegativeInt(1000),
        max_jobs: PositiveInt(10_000),
        max_repo_size_mb: PositiveNumber(2048),
        /** Blobs above this many MiB are counted as binary, without a line diff, when history is read (git's core.bigFileThreshold). */
        max_diff_blob_mb: PositiveNumber(16),
        max_page_bytes: PositiveInt(10_485_760),
        shutdown_grace_seconds: Type.Number({ minimum: 0, default: 25 }),
        fetch_timeout_seconds: PositiveNumber(20),
        strategy_timeout_seconds: PositiveNumber(30),
        stream_keepalive_seconds: PositiveNumber(15),
        max_open_streams: PositiveInt(100),
        /** Bytes that webhook bodies not yet authenticated may hold in memory together (each is still capped at 25 MiB). */
        max_unverified_webhook_bytes: PositiveInt(104_857_600),
        /** Connections one client address may hold open at once (503 beyond); trusted proxies (with api.trust_proxy) are exempt. */
        max_connections_per_client: PositiveInt(256),
        /** How long a finished job stays readable in a shared (Redis) store; the in-memory store keeps `max_jobs`. */
        job_ttl_seconds: PositiveInt(604_800),
        /** An organization scan's own limit (its repository jobs each keep job_timeout_seconds). */
        scan_timeout_seconds: PositiveNumber(21_600),
        /** Above this many counted text files at HEAD, lines at HEAD and their survival are not counted (docs/lines.md). */
        max_line_files: PositiveInt(20_000),
        /** Squashed requests whose own commits are read from their head refs, per analysis (the newest; 0: none; docs/scoring.md). */
        max_request_heads: NonNegativeInt(500),
      },
      { additionalProperties: false, default: {} },
    ),
    /** Lines at HEAD, survival and rework of repository analyses (docs/lines.md). */
    lines: Type.Object({ enabled: Type.Boolean({ default: true }) }, { additionalProperties: false, default: {} }),
    /** Organization scans on the server (docs/organization.md). */
    scans: Type.Object(
      {
        /** `forge:owner` globs (`github:acme`, `gitlab:platform/*`) a scan may name; none: no forge scan. */
        allowed_owners: Strings([]),
        /** A scan's repository jobs waiting or running at once: the rest are queued as these end. */
        max_queued_children: PositiveInt(4),
        /** Scans fired on a timer (`every`: a duration such as 24h, at least 1m); across servers on Redis, once each. */
        schedule: Type.Array(
          Type.Object(
            {
              target: Type.String({ minLength: 3, maxLength: 300 }),
              every: Type.Union([Type.String({ minLength: 1 }), Type.Integer({ minimum: 60_000 })]),
            },
            { additionalProperties: false },
          ),
          { default: [] },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    /** Where jobs wait and live (docs/deploy.md): `memory` in this process, or `redis` shared by servers and workers. */
    queue: Type.Object(
      {
        backend: Type.Union([Type.Literal('memory'), Type.Literal('redis')], { default: 'memory' }),
        /** A job whose worker stops renewing its lock for this long is retried once, then failed with ERR_WORKER_LOST. */
        stall_timeout_seconds: PositiveNumber(30),
        /** bull-board at /admin/queues, behind the API token (Redis backend only). */
        dashboard: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {} },
    ),
    redis: Type.Object(
      {
        url: Type.String({ minLength: 1, default: 'redis://127.0.0.1:6379' }),
        /** Every key and queue name starts with it: several deployments may share one Redis. */
        key_prefix: Type.String({ minLength: 1, pattern: '^[A-Za-z0-9_.-]+$', default: 'cadence' }),
      },
      { additionalProperties: false, default: {} },
    ),
    rate_limits: Type.Object(
      {
        webhooks_per_minute: PositiveInt(100),
        job_queries_per_minute: PositiveInt(1000),
        metrics_per_minute: PositiveInt(10_000),
        analyses_per_minute: PositiveInt(60),
      },
      { additionalProperties: false, default: {} },
    ),
    security: Type.Object(
      {
        allow_local_paths: Type.Boolean({ default: false }),
        allow_private_networks: Type.Boolean({ default: false }),
        allowed_networks: Strings([]),
      },
      { additionalProperties: false, default: {} },
    ),
    api: Type.Object(
      {
        token: OptionalSecret,
        public_metrics: Type.Boolean({ default: false }),
        trust_proxy: Type.Boolean({ default: false }),
        trusted_proxies: Strings(['127.0.0.0/8', '::1/128']),
        allowed_origins: Strings([]),
        /** Host names a browser may reach the server by when no token is set (besides IP addresses, localhost and server.public_url's host). */
        allowed_hosts: Strings([]),
      },
      { additionalProperties: false, default: {} },
    ),
    cache: Type.Object(
      {
        max_size: Type.Union([Type.String(), Type.Integer({ minimum: 0 })], { default: '500m' }),
        /** Bare mirrors of analyzed repositories, fetched instead of cloned; null: <OS temp folder>/cadence-mirrors. */
        repositories_dir: OptionalString,
        /** Together at most this much (least recently used go first); 0: no mirrors, a fresh clone per job. */
        repositories_max_size: Type.Union([Type.String(), Type.Integer({ minimum: 0 })], { default: '5g' }),
      },
      { additionalProperties: false, default: {} },
    ),
    git: Type.Object({ depth: NonNegativeInt(0) }, { additionalProperties: false, default: {} }),
    /** Package names or paths, or `{ name, options }` to give one its options. */
    plugins: Type.Array(
      Type.Union([
        Type.String({ minLength: 1 }),
        Type.Object(
          { name: Type.String({ minLength: 1 }), options: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
          { additionalProperties: false },
        ),
      ]),
      { default: [] },
    ),
    /** Options by plugin name (the name a plugin declares, or its package name), checked against the plugin's own schema. */
    plugin_options: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), { default: {} }),
    strategies: Type.Object({ disabled: Strings([]) }, { ...PROJECT_DATA, additionalProperties: false, default: {} }),
    /**
     * Where results are reported back (docs/forges.md): `forges.<name>` is the settings of the plugin
     * that brings forge `<name>`, checked against that plugin's own options schema once plugins load.
     */
    forges: Type.Object(
      {
        /** Draft pull and merge requests are acknowledged and skipped unless this is true. */
        request_drafts: Type.Boolean({ default: false }),
      },
      { additionalProperties: Type.Record(Type.String(), Type.Unknown()), default: {} },
    ),
    report: Type.Object(
      {
        /** When a status or check fails; otherwise success (neutral for check runs) with the verdict in its description. */
        fail_on: Type.Union([Type.Literal('never'), Type.Literal('suspicious'), Type.Literal('likely_ai_generated')], {
          default: 'never',
        }),
      },
      { ...PROJECT_DATA, additionalProperties: false, default: {} },
    ),
    server: Type.Object(
      {
        /** Where people reach this server (https://cadence.example.org): statuses link to the job there. */
        public_url: OptionalString,
        /**
         * A path prefix the server answers under (`/cadence`), for a reverse proxy that forwards
         * `https://tools.example.org/cadence/...` unchanged. Empty: the server answers at `/`.
         */
        base_path: Type.String({ default: '', pattern: '^(/[A-Za-z0-9._~-]+)*$', maxLength: 200 }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

/** A forge plugin's section, as written: its plugin's schema checks it. */
export type ForgeSection = Readonly<Record<string, unknown>>;

export type CadenceConfig = Omit<Static<typeof ConfigSchema>, 'forges'> & {
  forges: { request_drafts: boolean; [forge: string]: ForgeSection | boolean };
};

/** The sections a project file found by searching may set (those marked PROJECT_DATA above). */
export const PROJECT_FILE_KEYS: readonly string[] = Object.freeze(
  Object.entries(schemaProperties(ConfigSchema))
    .filter(([, schema]) => isRecord(schema) && schema.projectFile === true)
    .map(([key]) => key),
);

/**
 * The host's own secrets: masked by `cadence config`, scrubbed from logs. Plugins' secrets are the
 * options their schemas mark `secret: true`, under their sections (plugin-sections.ts).
 */
export const SECRET_KEYS = ['webhook.secret', 'api.token'] as const;

/**
 * Top-level sections that are a plugin's, not the host's, each with the one package that may own it:
 * that plugin names it as its `meta.configKey` and gets it as its options (the AI plugin, `ai`),
 * with its environment names (`CADENCE_AI_<OPTION>`). No other plugin can claim it (the AI key is
 * in it). Without that plugin the section is only kept.
 */
export const PLUGIN_SECTIONS: Readonly<Record<string, string>> = Object.freeze({
  ai: '@cadence-detect/plugin-ai-assist',
});

export type LeafKind = 'boolean' | 'integer' | 'number' | 'string' | 'strings' | 'string-or-number';

/** Every leaf key path with the kind of value it takes (what environment parsing needs). */
export function leafKeys(schema: unknown = ConfigSchema, prefix = ''): { path: string; kind: LeafKind }[] {
  const out: { path: string; kind: LeafKind }[] = [];
  for (const [name, child] of Object.entries(schemaProperties(schema))) {
    const path = prefix ? `${prefix}.${name}` : name;
    const kind = leafKind(child);
    if (kind) out.push({ path, kind });
    else out.push(...leafKeys(child, path));
  }
  return out;
}

export function leafKind(schema: unknown): LeafKind | null {
  const { type, anyOf, const: constant } = isRecord(schema) ? schema : {};
  if (type === 'object') return null;
  if (type === 'array') return 'strings';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'string' || typeof constant === 'string') return 'string';
  const members: unknown[] = Array.isArray(anyOf) ? anyOf : [];
  const types = new Set(members.map((v) => (isRecord(v) ? (v.type ?? typeof v.const) : undefined)));
  if (types.has('string') && (types.has('number') || types.has('integer'))) return 'string-or-number';
  return 'string';
}

/** A schema's `properties` (a typebox schema's or a plain JSON Schema's), or none. */
export function schemaProperties(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema)) return {};
  const { properties } = schema;
  return isRecord(properties) ? properties : {};
}
