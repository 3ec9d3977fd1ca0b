import { itemAt } from '@cadence-detect/errors';
import type { Redis } from 'ioredis';
import { FINAL_STATUSES, type Job } from '../../jobs/job.js';
import type { JobQuery, JobStore } from '../../jobs/job-store.js';
import { unavailable } from './redis-connection.js';
import { luaScript, runScript } from './redis-scripts.js';
import { TurnBatch } from './turn-batch.js';

/**
 * Jobs in Redis, shared by every server and worker. A job is a hash (its JSON, a version, its
 * status, repository and sequence number); sorted sets by sequence index all jobs, each status and
 * each repository, so `GET /jobs` filters and pages inside Redis. Updates are optimistic: read,
 * change, and write only if the version is still the one read (a Lua script), else read again.
 * Retention: at most `maxJobs` (the oldest final jobs go first) and a TTL on every final job.
 */
export class RedisJobStore implements JobStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxJobs: number,
    private readonly ttlSeconds: number,
  ) {}

  private jobKey(id: string): string {
    return `${this.prefix}:job:${id}`;
  }

  private get allKey(): string {
    return `${this.prefix}:jobs`;
  }

  private statusKey(status: string): string {
    return `${this.prefix}:jobs:status:${status}`;
  }

  private repoKey(repo: string): string {
    return `${this.prefix}:jobs:repo:${repo}`;
  }

  /**
   * The key a job's delivery claim lives under. Without a delivery it is the job's own key, which
   * is how both scripts know there is no claim: one convention for create and delete.
   */
  private claimKey(id: string, delivery: string | undefined): string {
    return delivery === undefined ? this.jobKey(id) : `${this.prefix}:delivery:${delivery}`;
  }

  /**
   * The creates of one event-loop turn run as one script (TurnBatch): under load a dozen webhooks
   * resume together, and one command for all of them cost Redis and this process a third less per
   * webhook than one each (docs/deploy.md, Sizing).
   */
  private readonly creates = new TurnBatch<{ job: Job; delivery?: string }, string | undefined>((batch) =>
    this.createAll(batch),
  );

  create(job: Job, delivery?: string): Promise<string | undefined> {
    return this.creates.add({ job, delivery }).catch(unavailable);
  }

  private async createAll(batch: ReadonlyArray<{ job: Job; delivery?: string }>): Promise<Array<string | undefined>> {
    const keys = [this.allKey, `${this.prefix}:jobs:seq`];
    const args: Array<string | number> = [this.maxJobs, this.prefix, FINAL_STATUS_LIST, REMEMBER_DELIVERY_SECONDS];
    for (const { job, delivery } of batch) {
      keys.push(
        this.jobKey(job.id),
        this.statusKey(job.status),
        this.repoKey(job.repo),
        this.claimKey(job.id, delivery),
      );
      args.push(JSON.stringify(job), job.status, job.repo, job.id);
    }
    const outcomes = (await runScript(this.redis, CREATE, keys, args)) as Array<string | number>;
    return outcomes.map((outcome) => (typeof outcome === 'string' ? outcome : undefined));
  }

  async get(id: string): Promise<Job | undefined> {
    const data = await this.redis.hget(this.jobKey(id), 'data').catch(unavailable);
    return data ? (JSON.parse(data) as Job) : undefined;
  }

  async update(id: string, change: (job: Job) => void): Promise<Job | undefined> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const [data, version] = await this.redis.hmget(this.jobKey(id), 'data', 'v').catch(unavailable);
      if (!data || !version) return undefined;
      const job = JSON.parse(data) as Job;
      const before = job.status;
      change(job);
      const ttl = FINAL_STATUSES.has(job.status) ? this.ttlSeconds : 0;
      const written = await runScript(
        this.redis,
        UPDATE,
        [this.jobKey(id), this.statusKey(before), this.statusKey(job.status)],
        [version, JSON.stringify(job), job.status, id, ttl],
      ).catch(unavailable);
      if (written === 1) return job;
      if (written === -1) return undefined;
    }
    throw new Error(`job ${id}: too many concurrent updates`);
  }

  async delete(id: string, delivery?: string): Promise<void> {
    await runScript(this.redis, DELETE, [this.jobKey(id), this.claimKey(id, delivery)], [this.prefix, id]).catch(
      unavailable,
    );
  }

  async list(query: JobQuery): Promise<Job[]> {
    const keys = [
      query.status ? this.statusKey(query.status) : null,
      query.repo ? this.repoKey(query.repo) : null,
    ].filter((k): k is string => k !== null);
    let index = keys[0] ?? this.allKey;
    if (keys.length === 2) {
      // Both filters: their intersection, kept for a few seconds (a client paging through reuses it).
      index = `${this.prefix}:tmp:${query.status}:${query.repo}`;
      await this.redis
        .multi()
        .zinterstore(index, 2, itemAt(keys, 0), itemAt(keys, 1), 'AGGREGATE', 'MAX')
        .expire(index, 5)
        .exec()
        .catch(unavailable);
    }
    const jobs: Job[] = [];
    let start = query.offset;
    // Entries whose job expired are dropped from the index as they are met, and the page read on.
    while (jobs.length < query.limit) {
      const want = query.limit - jobs.length;
      const ids = await this.redis.zrevrange(index, start, start + want - 1).catch(unavailable);
      if (ids.length === 0) break;
      const pipeline = this.redis.pipeline();
      for (const id of ids) pipeline.hget(this.jobKey(id), 'data');
      const answers = (await pipeline.exec().catch(unavailable)) ?? [];
      const gone: string[] = [];
      ids.forEach((id, i) => {
        const data = answers[i]?.[1] as string | null | undefined;
        if (data) jobs.push(JSON.parse(data) as Job);
        else gone.push(id);
      });
      if (gone.length > 0) await this.redis.zrem(index, ...gone).catch(unavailable);
      start += ids.length - gone.length;
      if (ids.length < want) break;
    }
    return jobs;
  }

  async size(): Promise<number> {
    return this.redis.zcard(this.allKey).catch(unavailable);
  }
}

/** The final statuses as the create script reads them: old jobs in one of them may be dropped. */
const FINAL_STATUS_LIST = [...FINAL_STATUSES].join(',');

/** How long a delivery id is remembered: forges redeliver within hours, not days. */
const REMEMBER_DELIVERY_SECONDS = 3 * 24 * 3600;

// Creates the jobs of a batch, in order. KEYS: all, seq, then per job: job, status index, repo
// index, delivery claim (the job's own key when it has no delivery). ARGV: max jobs, prefix, final
// statuses, seconds to remember a delivery, then per job: json, status, repo, id. Returns per job
// the earlier job's id when its delivery was claimed before (nothing is written for it), else 0.
// A claim made by a job earlier in the same batch counts as made before.
const CREATE = luaScript(`
local outcomes = {}
for i = 0, (#KEYS - 2) / 4 - 1 do
  local k, a = 3 + 4 * i, 5 + 4 * i
  local earlier = false
  if KEYS[k + 3] ~= KEYS[k] then
    earlier = redis.call('GET', KEYS[k + 3])
    if not earlier then redis.call('SET', KEYS[k + 3], ARGV[a + 3], 'EX', ARGV[4]) end
  end
  if earlier then
    outcomes[i + 1] = earlier
  else
    local seq = redis.call('INCR', KEYS[2])
    redis.call('HSET', KEYS[k], 'data', ARGV[a], 'v', 1, 'status', ARGV[a + 1], 'repo', ARGV[a + 2], 'seq', seq)
    redis.call('ZADD', KEYS[1], seq, ARGV[a + 3])
    redis.call('ZADD', KEYS[k + 1], seq, ARGV[a + 3])
    redis.call('ZADD', KEYS[k + 2], seq, ARGV[a + 3])
    outcomes[i + 1] = 0
  end
end
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if excess <= 0 then return outcomes end
local final = {}
for s in string.gmatch(ARGV[3], '[^,]+') do final[s] = true end
local oldest = redis.call('ZRANGE', KEYS[1], 0, excess + 99)
local removed = 0
for _, id in ipairs(oldest) do
  if removed >= excess then break end
  local key = ARGV[2] .. ':job:' .. id
  local fields = redis.call('HMGET', key, 'status', 'repo')
  if not fields[1] then
    redis.call('ZREM', KEYS[1], id)
    removed = removed + 1
  elseif final[fields[1]] then
    redis.call('DEL', key)
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', ARGV[2] .. ':jobs:status:' .. fields[1], id)
    redis.call('ZREM', ARGV[2] .. ':jobs:repo:' .. fields[2], id)
    removed = removed + 1
  end
end
return outcomes
`);

// KEYS: job, old status index, new status index. ARGV: version read, json, status, id, ttl (0: none).
// Returns 1 written, 0 changed meanwhile (read again), -1 gone.
const UPDATE = luaScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'v', tonumber(v) + 1, 'status', ARGV[3])
if KEYS[2] ~= KEYS[3] then
  local seq = redis.call('HGET', KEYS[1], 'seq')
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZADD', KEYS[3], seq, ARGV[4])
end
if tonumber(ARGV[5]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[5]) end
return 1
`);

// KEYS: job, delivery claim (the job's own key when it has no delivery). ARGV: prefix, id.
const DELETE = luaScript(`
local fields = redis.call('HMGET', KEYS[1], 'status', 'repo')
if KEYS[2] ~= KEYS[1] and redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[1] .. ':jobs', ARGV[2])
if fields[1] then redis.call('ZREM', ARGV[1] .. ':jobs:status:' .. fields[1], ARGV[2]) end
if fields[2] then redis.call('ZREM', ARGV[1] .. ':jobs:repo:' .. fields[2], ARGV[2]) end
return 1
`);
