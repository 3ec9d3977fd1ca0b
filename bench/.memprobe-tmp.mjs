import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
const { tightenHeapGrowth } = await import('../host/dist/heap-growth.js');
tightenHeapGrowth();
const { builtinRepositoryEngine } = await import('./builtin-engine.mjs');
const repo = process.argv[2];
const engine = await builtinRepositoryEngine(repo);
let peak = { rss: 0 };
const samples = [];
const t0 = Date.now();
const timer = setInterval(() => {
  const m = process.memoryUsage();
  samples.push([Date.now() - t0, m.rss >> 20, m.heapUsed >> 20, m.heapTotal >> 20, m.external >> 20, m.arrayBuffers >> 20]);
  if (m.rss > peak.rss) {
    peak = { ...m, at: Date.now() - t0, spaces: getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size >> 20, s.space_used_size >> 20]) };
  }
}, 100);
const result = await engine.analyze({ kind: 'repository', url: repo, cache: false }, { network: null, allowLocalPaths: true });
clearInterval(timer);
const mb = (x) => (x / 1048576).toFixed(0);
console.log('maxRSS', mb(process.resourceUsage().maxRSS * 1024), 'ms', Date.now() - t0, 'lines', result.lines?.counted);
console.log('peak sample at', peak.at, 'rss', mb(peak.rss), 'heapUsed', mb(peak.heapUsed), 'heapTotal', mb(peak.heapTotal), 'external', mb(peak.external), 'ab', mb(peak.arrayBuffers));
console.log(JSON.stringify(peak.spaces));
const step = Math.max(1, Math.floor(samples.length / 40));
for (let i = 0; i < samples.length; i += step) console.log(samples[i].join(' '));
