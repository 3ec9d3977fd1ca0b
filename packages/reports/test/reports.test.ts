import { expect } from 'chai';
import type { RepositoryResult, WebsiteResult } from '@cadence-detect/plugin-sdk';
import { aggregateTimeline, renderReport, reportFormatFromPath, UsageError } from '../src/index.js';
import { renderReportLazily } from '../src/render.js';
import { REPORT_SCRIPT, REPORT_SCRIPT_HASH } from '../src/report-script.js';
import { createHash } from 'node:crypto';

const HOSTILE = `<script>alert("x")</script> & 'quotes' </style><img src=x onerror=alert(1)>`;

function repositoryResult(): RepositoryResult {
  return {
    source_id: `https://example.test/${HOSTILE}`,
    source_type: 'git',
    repo: `acme/${HOSTILE}`,
    branch: HOSTILE,
    head_commit: 'a'.repeat(40),
    total_commits: 2,
    suspicious_commits: 1,
    suspicions: [
      {
        commit_hash: 'abcdef1',
        commit: 'abcdef1'.padEnd(40, '0'),
        message: HOSTILE,
        severity: 'high',
        confidence: 0.9,
        reasons: [`size: ${HOSTILE}`],
        evidence: 'inferred',
        author: HOSTILE,
        date: '2020-01-01T00:00:00.000Z',
      },
    ],
    overall_score: 0.75,
    suspicion_score: 0.75,
    assessment: 'likely_ai_generated',
    ai_share: 0.75,
    scored_commits: 2,
    attributed_commits: 1,
    assistants: { [HOSTILE]: 1 },
    authors: [{ author: HOSTILE, email: HOSTILE, commits: 2, attributed: 1, flagged: 1, share: 0.75 }],
    assessment_bands: { suspicious: 0.15, likely_ai_generated: 0.5 },
    scoring: 'model',
    flag_at: 0.5,
    thresholds: {
      suspicious_additions: 500,
      suspicious_deletions: 1000,
      max_additions_per_min: 100,
      max_deletions_per_min: 500,
      min_time_delta_seconds: 60,
    },
    detections: [
      {
        strategy: 'size',
        category: 'size',
        severity: 'high',
        confidence: 0.7,
        score: 1,
        message: HOSTILE,
        commit: 'abcdef1',
        evidence: 'inferred',
      },
    ],
    strategy_results: [
      { name: 'size', category: 'size', detected: true, detections: 1, score: 1, duration_ms: 1, error: HOSTILE },
    ],
    metrics: { additions: 10, authors: 1 },
    timeline: Array.from({ length: 1000 }, (_, i) => ({
      t: 1_600_000_000 + i * 3600,
      commits: 1 + (i % 3),
      flagged: i % 10 === 0 ? 1 : 0,
    })),
    ai: {
      provider: 'openai',
      model: HOSTILE,
      verdicts: [{ item: 'abcdef1', assessment: 'ai_generated', confidence: 0.8, reasoning: HOSTILE, indicators: [] }],
      items_sent: 1,
    },
  };
}

describe('the text report reads without the docs', () => {
  it('counts flagged commits over scored ones on its first line, saying once what was not scored', () => {
    const result = { ...repositoryResult(), total_commits: 4684, scored_commits: 3681, suspicious_commits: 29 };
    expect(renderReport(result, 'text').split('\n')[0]).to.equal(
      'Verdict: likely_ai_generated: 29 of 3681 scored commits flagged, assistant share 75% (4684 read; 1003 not scored: merges, automation and commits without changed lines)',
    );
    expect(renderReport({ ...result, total_commits: 3681 }, 'text').split('\n')[0]).to.equal(
      'Verdict: likely_ai_generated: 29 of 3681 scored commits flagged, assistant share 75%',
    );
  });

  it('draws a sliver for a month whose added lines all went (0% surviving), and no bar for a month without lines', () => {
    const month = (m: string, added: number, surviving: number) => ({
      month: m,
      assistant_added: added,
      assistant_surviving: surviving,
      assistant_reworked_14d: 0,
      human_added: 10,
      human_surviving: 10,
      human_reworked_14d: 0,
    });
    const result = {
      ...repositoryResult(),
      survival: {
        assistant: { added: 40, surviving: 20, reworked_14d: 0 },
        human: { added: 30, surviving: 30, reworked_14d: 0 },
        months: [month('2025-01', 20, 0), month('2025-02', 0, 0), month('2025-03', 20, 20)],
      },
    };
    const html = renderReport(result, 'html');
    const gone = /<rect [^>]*height="([\d.]+)"[^>]*><title>2025-01, assistant: 20 lines added, 0%/.exec(html);
    expect(gone, 'a bar for 2025-01').to.not.equal(null);
    expect(Number(gone![1])).to.be.above(0);
    expect(html).to.not.contain('<title>2025-02, assistant:');
    expect(html).to.contain('<title>2025-02, human: 10 lines added');
  });

  it('says numbers one way: grouped thousands, and a unit that agrees with its number (1 line, never 1 lines)', () => {
    const base = repositoryResult();
    const result = {
      ...base,
      total_commits: 12_345,
      metrics: { ...base.metrics, additions: 231_898, deletions: 1, authors: 1, median_additions: 1 },
    };
    const text = renderReport(result, 'text');
    expect(text).to.match(/^Commits: 12,345 analyzed, .*; 231,898 additions, 1 deletion, 1 author$/m);
    const html = renderReport(result, 'html');
    expect(html).to.contain('12,345 commits analyzed').and.contain('231,898 additions');
    expect(html).to.contain('<td class="num">1 line</td>').and.not.contain('>1 lines<');
  });

  it('shows the lines\u2019 false-alarm floor beside the line share, in the text and the HTML', () => {
    const lines = {
      head: 'a'.repeat(40),
      counted: 1_000,
      excluded: 0,
      binary_files: 0,
      explicit: 100,
      inferred: 50,
      automation: 0,
      human: 850,
      outside: 0,
      share: 0.15,
      assistants: {},
      directories: [],
      authors: [],
      era_check: { before: '2021-06-29', commits: 40, lines: 600, inferred: 24, share: 0.04 },
    };
    const result = { ...repositoryResult(), lines };
    const floor =
      'False-alarm floor for lines: the 600 lines here written before assistants existed (before 2021-06-29, 40 commits) read 4.0% assistant-made: a line share below about 4.0% is noise here.';
    const text = renderReport(result, 'text').split('\n');
    const share = text.findIndex((line) => line.startsWith('Code at HEAD: 15% assistant-made'));
    expect(text[share + 1]).to.equal(floor);
    expect(renderReport(result, 'html')).to.contain(`<p id="lines-era-check">${floor}</p>`);
    const none = renderReport({ ...result, lines: { ...lines, era_check: null } }, 'text');
    expect(none).to.contain('False-alarm floor for lines: none: fewer than 20 commits');
  });

  it('keeps a finding\u2019s lines to 160 characters (the JSON and HTML keep them whole)', () => {
    const long = 'Rework the parser '.repeat(20);
    const base = repositoryResult();
    const result = {
      ...base,
      suspicions: [{ ...base.suspicions[0]!, message: long, reasons: [`commit-model (inferred): ${long}`] }],
    };
    const lines = renderReport(result, 'text')
      .split('\n')
      .filter((l) => l.includes('Rework the parser'));
    expect(lines).to.have.length(2);
    for (const line of lines) expect(line.length, line).to.be.at.most(160);
    expect(lines[0]!.endsWith('\u2026')).to.equal(true);
    expect(renderReport(result, 'json')).to.contain(long.trim());
  });
});

describe('reports', () => {
  it('picks the format from the extension and refuses unknown ones', () => {
    expect(['a.json', 'a.TXT', 'a.html', 'a.htm', 'a.yaml', 'a.yml'].map(reportFormatFromPath)).to.deep.equal([
      'json',
      'text',
      'html',
      'html',
      'yaml',
      'yaml',
    ]);
    expect(() => reportFormatFromPath('a.pdf')).to.throw(UsageError, /unknown report extension "\.pdf"/);
    expect(() => reportFormatFromPath('report')).to.throw(UsageError);
  });

  it('escapes every text from the repository in the HTML report, which loads nothing and runs only its own script', () => {
    const html = renderReport(repositoryResult(), 'html');
    // One script, the report's own, allowed by its hash; nothing from the repository runs.
    expect(html.match(/<script/g)).to.have.length(1);
    expect(html).to.contain(`<script>${REPORT_SCRIPT}</script>`);
    expect(html).to.contain(`script-src ${REPORT_SCRIPT_HASH}`);
    expect(REPORT_SCRIPT_HASH).to.equal(`'sha256-${createHash('sha256').update(REPORT_SCRIPT).digest('base64')}'`);
    // No element loads anything (escaped page text inside quoted attribute values is inert).
    expect(html.replace(/"[^"]*"/g, '""')).to.not.match(/<[a-z][^<>]*\ssrc=/);
    expect(html).to.not.contain('href="http');
    expect(html).to.not.contain('<img');
    expect(html).to.not.contain('</style><');
    expect(html).to.contain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(html.replace(/"[^"]*"/g, '""')).to.not.match(/<[^>]+\s(src|href)=/);
    expect(html).to.contain("default-src 'none'");
  });

  it('says what the score means, the share flagged, the thresholds and each finding\u2019s evidence (text and HTML)', () => {
    const result = repositoryResult();
    const text = renderReport(result, 'text');
    expect(text).to.contain('ai_share 0.75: the mean, over 2 scored commits');
    expect(text).to.contain('Bands: clean below 0.15, suspicious from 0.15, likely_ai_generated from 0.50');
    expect(text).to.contain('1 of 2 scored commits flagged (50.0%): 0 by explicit attribution, 1 inferred.');
    expect(text).to.contain('Thresholds in force: suspicious_additions 500');
    expect(text).to.match(/abcdef1 +high +0\.90 +inferred/);
    expect(text).to.contain('Authors (commits, attributed, flagged, share):');
    const html = renderReport(result, 'html');
    expect(html).to.contain('<th scope="col">Evidence</th>').and.contain('<td>inferred</td>');
    expect(html).to.contain('Bands: clean below 0.15');
    expect(html).to.contain('<h2>Authors</h2>');
  });

  it('puts the size and pace metrics beside the corpus\u2019s human histories, and leaves out what was not measured', () => {
    const result = {
      ...repositoryResult(),
      metrics: {
        additions: 10,
        authors: 1,
        median_additions: 240,
        p90_additions: 1800,
        median_author_interval_seconds: 95,
      },
    };
    const html = renderReport(result, 'html');
    const table = html.slice(
      html.indexOf('<table id="metrics">'),
      html.indexOf('</table>', html.indexOf('<table id="metrics">')),
    );
    expect(table).to.contain('repositories').and.contain('commits written before assistants');
    expect(table).to.match(
      /Median additions per commit<\/th><td class="num">240 lines<\/td><td class="num">[\d,]+ lines<\/td><td class="num">[\d,]+ lines to [\d,]+ lines<\/td>/,
    );
    expect(table).to.contain('<td class="num">1,800 lines</td>');
    expect(table).to.contain('<td class="num">2 min</td>');
    expect(renderReport(repositoryResult(), 'html')).not.to.contain('<table id="metrics">');
  });

  it('colours the badge by the assessment, so a clean verdict is never red', () => {
    const clean = { ...repositoryResult(), overall_score: 0.1, ai_share: 0.1, assessment: 'clean' as const };
    expect(renderReport(clean, 'html')).to.contain('<span class="score low">clean');
    const likely = { ...repositoryResult(), assessment: 'likely_ai_generated' as const };
    expect(renderReport(likely, 'html')).to.contain('<span class="score high">likely_ai_generated');
  });

  it('says when the AI second opinion moved the score away from ai_share', () => {
    const moved = { ...repositoryResult(), overall_score: 0.9 };
    expect(renderReport(moved, 'text')).to.contain('The AI second opinion moved the overall score from 0.75 to 0.90');
  });

  it('puts the tool version, the time, the configuration and the explanation in front of the JSON and YAML reports', () => {
    const context = {
      tool: 'cadence',
      version: '9.9.9',
      generated_at: '2026-01-02T03:04:05.000Z',
      configuration: { thresholds: { suspicious_additions: 500 } },
    };
    const json = JSON.parse(renderReport(repositoryResult(), 'json', context)) as {
      report: { version: string; explanation: string[] };
      ai_share: number;
    };
    expect(Object.keys(json)[0]).to.equal('report');
    expect(json.report).to.include({ version: '9.9.9', generated_at: '2026-01-02T03:04:05.000Z' });
    expect(json.report.explanation[1]).to.contain('Bands: clean below 0.15');
    expect(json.ai_share).to.equal(0.75);
    expect(renderReport(repositoryResult(), 'yaml', context)).to.match(
      /^report:\n {2}tool: cadence\n {2}version: 9\.9\.9/,
    );
    expect(renderReport(repositoryResult(), 'text', context)).to.contain(
      'Made by cadence 9.9.9 at 2026-01-02T03:04:05.000Z.',
    );
  });

  it('aggregates a long timeline to at most 400 points, keeping the counts', () => {
    const buckets = repositoryResult().timeline;
    const points = aggregateTimeline(buckets);
    expect(points.length).to.be.at.most(400);
    expect(points.reduce((s, p) => s + p.commits, 0)).to.equal(buckets.reduce((s, p) => s + p.commits, 0));
    expect(points.reduce((s, p) => s + p.flagged, 0)).to.equal(100);
  });

  it('strips terminal control characters from the text report', () => {
    const result = repositoryResult();
    result.suspicions[0]!.message = 'evil\u001b[2Jmessage\r';
    const text = renderReport(result, 'text');
    expect(text).to.not.contain('\u001b');
    expect(text).to.contain('Assessment: likely_ai_generated');
  });

  describe('control and bidirectional characters from a repository or page', () => {
    // Each one makes a terminal or a browser do something other than show it (docs/report.md: every string from a repository or a page is escaped).
    const FORBIDDEN: readonly [string, string][] = [
      ['U+0000 NUL', '\u0000'],
      ['U+0007 BEL', '\u0007'],
      ['U+0008 BS', '\u0008'],
      ['U+000D CR', '\r'],
      ['U+001B ESC', '\u001b'],
      ['U+001F US', '\u001f'],
      ['U+007F DEL', '\u007f'],
      ['U+0080', '\u0080'],
      ['U+0085 NEL', '\u0085'],
      ['U+009B CSI', '\u009b'],
      ['U+009D OSC', '\u009d'],
      ['U+009F APC', '\u009f'],
      ['U+061C ALM', '\u061c'],
      ['U+200E LRM', '\u200e'],
      ['U+200F RLM', '\u200f'],
      ['U+202A LRE', '\u202a'],
      ['U+202B RLE', '\u202b'],
      ['U+202C PDF', '\u202c'],
      ['U+202D LRO', '\u202d'],
      ['U+202E RLO', '\u202e'],
      ['U+2066 LRI', '\u2066'],
      ['U+2067 RLI', '\u2067'],
      ['U+2068 FSI', '\u2068'],
      ['U+2069 PDI', '\u2069'],
    ];

    function hostile(character: string): RepositoryResult {
      const result = repositoryResult();
      result.repo = `acme/repo${character}name`;
      result.source_id = `https://example.test/acme/repo${character}name`;
      result.branch = `main${character}`;
      result.suspicions[0]!.message = `Add the parser${character}]8;;https://evil.test${character}\\ now`;
      result.suspicions[0]!.author = `Mallory${character}Example`;
      result.suspicions[0]!.reasons = [`size: src/a${character}b.ts`];
      result.strategy_results[0]!.error = `failed on ${character}x`;
      result.ai = undefined;
      return result;
    }

    for (const [name, character] of FORBIDDEN) {
      for (const format of ['text', 'html'] as const) {
        it(`leaves no ${name} in the ${format} report`, () => {
          const report = renderReport(hostile(character), format);
          expect(report.includes(character), `${name} in the ${format} report`).to.equal(false);
          // The surrounding words still show: the character is dropped, not the text.
          expect(report).to.contain('Add the parser');
          if (format === 'html') expect(report).to.contain('Mallory');
        });
      }
    }

    it('strips them from website reports too (page text and URLs)', () => {
      const site: WebsiteResult = {
        source_id: 'https://example.test/\u202e',
        source_type: 'web',
        url: 'https://example.test/\u202egpj.exe',
        final_url: 'https://example.test/\u009d',
        overall_score: 0.5,
        suspicion_score: 0.5,
        assessment: 'Likely Human-Written',
        strategies_triggered: 1,
        detections: [
          {
            strategy: 'website-signature',
            category: 'content',
            severity: 'medium',
            confidence: 0.5,
            score: 0.5,
            message: 'phrase \u0085"delve\u2066"',
            element: 'p\u001b[2J',
            evidence: 'inferred',
          },
        ],
        strategy_results: [],
        metrics: { words: 120 },
      };
      for (const format of ['text', 'html'] as const) {
        const report = renderReport(site, format);
        expect(report).to.not.match(
          // eslint-disable-next-line no-control-regex -- the control characters a report must not hold
          /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/,
        );
        expect(report).to.contain('delve');
      }
    });

    it('keeps line feeds in the HTML report and nothing else of the kind', () => {
      expect(renderReport(hostile('\n'), 'html')).to.contain('Add the parser\n]8;;');
      expect(renderReport(hostile('\n'), 'text')).to.contain('Add the parser ]8;;');
    });
  });

  it('renders website results in every format', () => {
    const site: WebsiteResult = {
      source_id: 'https://example.test/',
      source_type: 'web',
      url: 'https://example.test/',
      final_url: 'https://example.test/',
      overall_score: 0.2,
      suspicion_score: 0.2,
      assessment: 'Likely Human-Written',
      strategies_triggered: 0,
      detections: [],
      strategy_results: [],
      metrics: { words: 120 },
    };
    expect(renderReport(site, 'text')).to.contain('Assessment: Likely Human-Written');
    expect(JSON.parse(renderReport(site, 'json'))).to.deep.equal(site);
    expect(renderReport(site, 'yaml')).to.contain('assessment: Likely Human-Written');
    expect(renderReport(site, 'html')).to.contain('Likely Human-Written');
  });

  it('explains a page score: the model, its validation, the bands and the strongest signals', () => {
    const site: WebsiteResult = {
      source_id: 'https://example.test/',
      source_type: 'web',
      url: 'https://example.test/',
      final_url: 'https://example.test/',
      overall_score: 0.85,
      suspicion_score: 0.85,
      assessment: 'Likely AI-Generated',
      strategies_triggered: 2,
      detections: [
        {
          strategy: 'page-model',
          category: 'website-signature',
          severity: 'high',
          confidence: 0.8,
          score: 0.8,
          message: 'page model probability 0.80',
          element: 'page',
          evidence: 'inferred',
        },
        {
          strategy: 'triads',
          category: 'website-signature',
          severity: 'low',
          confidence: 1,
          score: 1,
          message: 'triads per sentence 0.4 (human pages: median 0.08, 90th percentile 0.2)',
          element: 'page',
          evidence: 'inferred',
        },
        {
          strategy: 'stock-phrases',
          category: 'content',
          severity: 'high',
          confidence: 0.85,
          score: 0.85,
          message: 'stock phrase "<delve into>"',
          element: 'p',
          evidence: 'inferred',
        },
      ],
      strategy_results: [],
      metrics: {
        words: 900,
        'page-model_probability': 0.8,
        'page-model_validation_auc': 0.91,
        'page-model_validation_pages': 170,
        'page-model_validation_human_at_0_4': 0.06,
      },
    };
    const text = renderReport(site, 'text');
    expect(text).to.contain(
      "the page model's calibrated probability that a language model wrote the page is 0.80; other strategies and floors",
    );
    expect(text).to.contain(
      'validated leave one topic out on 170 pages of the development corpus: AUC 0.91, 6% of its human pages scored 0.4 or more',
    );
    expect(text).to.contain('Bands: Likely Human-Written below 0.40');
    // Strongest first; the model's own detection is the score, not a signal.
    const signals = text.slice(text.indexOf('Strongest signals'));
    expect(signals.indexOf('triads')).to.be.greaterThan(0).and.lessThan(signals.indexOf('stock-phrases'));
    expect(signals.split('\n').slice(1, 3).join('\n')).not.to.contain('page-model');
    const html = renderReport(site, 'html');
    expect(html).to.contain('<h2>Strongest signals</h2>');
    expect(html).to.contain('&quot;&lt;delve into&gt;&quot;');
    const json = JSON.parse(
      renderReport(site, 'json', {
        tool: 'cadence',
        version: '0',
        generated_at: '2026-01-01T00:00:00Z',
        configuration: {},
      }),
    );
    expect(json.report.explanation[0]).to.match(/^Page score 0\.85/);
    expect(json.report.strongest_signals[0].strategy).to.equal('triads');
    // Without a model the score is the strategies' mean, and the report says so.
    expect(renderReport({ ...site, metrics: { words: 900 } }, 'text')).to.contain(
      'the weight-averaged score of the website strategies (no calibrated page model ran)',
    );
  });

  it('marks the flagged phrase in its passage on a website report, everything escaped', () => {
    const site: WebsiteResult = {
      source_id: 'https://example.test/',
      source_type: 'web',
      url: 'https://example.test/',
      final_url: 'https://example.test/',
      overall_score: 0.72,
      suspicion_score: 0.72,
      assessment: 'Likely AI-Generated',
      strategies_triggered: 1,
      detections: [
        {
          strategy: 'stock-phrases',
          category: 'content',
          severity: 'high',
          confidence: 0.8,
          score: 0.8,
          message: 'stock phrase "delve into" (3 stock phrases)',
          element: 'article > p:nth(2): "…we Delve into <b>the</b> details…"',
          evidence: 'inferred',
        },
        {
          strategy: 'placeholder-text',
          category: 'content',
          severity: 'high',
          confidence: 0.9,
          score: 0.9,
          message: 'placeholder or assistant text "<script>x</script>"',
          element: 'p: "… <script>x</script> …"',
          evidence: 'inferred',
        },
      ],
      strategy_results: [],
      metrics: { words: 900 },
    };
    const html = renderReport(site, 'html');
    expect(html).to.contain('&quot;…we <mark>Delve into</mark> &lt;b&gt;the&lt;/b&gt; details…&quot;');
    expect(html).to.contain('<mark>&lt;script&gt;x&lt;/script&gt;</mark>');
    expect(html).to.contain('<section class="verdict high" aria-label="Verdict">');
    expect(html.match(/<script/g)).to.have.length(1);
  });

  // The CLI renders through the lazy entry: it must write the very report renderReport writes.
  it('renders the same report lazily, in every format', async () => {
    for (const format of ['text', 'json', 'yaml', 'html'] as const) {
      expect(await renderReportLazily(repositoryResult(), format), format).to.equal(
        renderReport(repositoryResult(), format),
      );
    }
  });
});
