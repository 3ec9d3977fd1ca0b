import { expect } from 'chai';
import { attributeCommit, compileRules } from '@cadence-detect/plugin-attribution';
import { makeCommits, type CommitSpec } from '@cadence-detect/plugin-testkit';
import {
  assistantOf,
  labelOf,
  labelRulesOf,
  loadAssistantNames,
  loadLabelRules,
  originOf,
  stripAttribution,
} from '../../bench/corpus/corpus-labels.mjs';

const CUTOFF = Date.parse('2021-01-01T00:00:00Z') / 1000;
const rules = loadLabelRules();
const names = loadAssistantNames();
const pluginRules = compileRules();

/** Assistant-made commits in every form the attribution plugin knows (messages written for this test). */
const ASSISTED: Omit<CommitSpec, 'at'>[] = [
  {
    subject: 'Add parser',
    body: 'Parses the header.\n\n\u{1F916} Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>',
  },
  { subject: 'Fix retry', body: 'Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>' },
  {
    subject: 'Initial plan',
    author: 'copilot-swe-agent[bot]',
    email: '198982749+Copilot@users.noreply.github.com',
    committer: 'GitHub',
    committerEmail: 'noreply@github.com',
  },
  { subject: 'aider: aider: rename the module', author: 'Ada (aider)', email: 'ada@example.com' },
  { subject: 'Tidy', body: 'Co-authored-by: Cursor <cursoragent@cursor.com>\nMade-with: Cursor' },
  { subject: 'Speed up', body: 'Assisted-by: Claude:claude-3-opus coccinelle' },
  { subject: 'Docs', body: 'Co-Authored-By: Crush <crush@charm.land>\n\n\u{1F498} Generated with Crush' },
  { subject: 'Lint', author: 'Codex', email: 'codex@openai.com' },
  { subject: 'Cleanup', body: 'Co-authored-by: claude[bot] <209825114+claude[bot]@users.noreply.github.com>' },
  { subject: 'Ask Claude to add a retry to the uploader', body: 'Prompt: add a retry with backoff to the uploader' },
  { subject: 'Cache the parsed config', body: 'I asked Codex to fix the cache of the parsed config between runs.' },
];

/** The assistant each form is made with (assistantOf), in ASSISTED order. */
const MADE_WITH = [
  'claude',
  'copilot',
  'copilot-agent',
  'aider',
  'cursor',
  'claude',
  'crush',
  'codex',
  'claude',
  'claude',
  'codex',
];

/**
 * The decision table of docs/scoring.md ("Written and carried commits"), one built commit per row:
 * [what the row is, the commit, written or carried].
 */
const AGENT = { author: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' };
const AGENT_COAUTHOR = 'Co-authored-by: copilot-swe-agent[bot] <198982749+Copilot@users.noreply.github.com>';
const CLAUDE_FOOTER =
  '\u{1F916} Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>';
const ORIGINS: [string, Omit<CommitSpec, 'at'>, 'written' | 'carried'][] = [
  [
    'a tool\u2019s footer under a body',
    { subject: 'Add parser', body: `Parses the header.\n\n${CLAUDE_FOOTER}` },
    'written',
  ],
  ['a tool\u2019s footer under a subject alone', { subject: 'Add parser', body: CLAUDE_FOOTER }, 'written'],
  ['an agent account\u2019s commit with a subject alone', { subject: 'fix: bump Node.js to 22', ...AGENT }, 'written'],
  ['an agent account\u2019s planning commit', { subject: 'Initial plan', ...AGENT }, 'written'],
  [
    'an agent account\u2019s commit with its session trailer only',
    {
      subject: 'chore: run go mod tidy',
      body: 'Agent-Logs-Url: https://github.com/o/r/sessions/1\n\nCo-authored-by: Ada <1+ada@users.noreply.github.com>',
      ...AGENT,
    },
    'written',
  ],
  [
    'a kernel-style Assisted-by trailer',
    { subject: 'Speed up', body: 'Assisted-by: Claude:claude-3-opus coccinelle' },
    'written',
  ],
  [
    'a prompt quoted in the message',
    { subject: 'Cache the parsed config', body: 'I asked Codex to fix the cache.' },
    'written',
  ],
  [
    'a squash keeping the agent\u2019s messages',
    {
      subject: 'Add retries (#12)',
      body: `* Initial plan\n\n* Add retries with backoff to the uploader\n\n---------\n\n${AGENT_COAUTHOR}`,
    },
    'written',
  ],
  [
    'a squash reduced to the request\u2019s title',
    { subject: 'Add retries (#12)', body: `---------\n\n${AGENT_COAUTHOR}` },
    'carried',
  ],
  [
    'a squash reduced to the title by the agent\u2019s account',
    { subject: 'Add retries (#12)', body: AGENT_COAUTHOR, ...AGENT },
    'carried',
  ],
  ['a squash keeping only the tool\u2019s footer', { subject: 'Fix the cache (#3)', body: CLAUDE_FOOTER }, 'carried'],
  [
    'a squash whose list holds the plan alone',
    { subject: 'Fix the cache (#3)', body: `* Initial plan\n\n---------\n\n${AGENT_COAUTHOR}` },
    'carried',
  ],
  [
    'GitHub\u2019s accepted-suggestion commit',
    {
      subject: 'Apply suggestions from code review',
      body: 'Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>',
    },
    'carried',
  ],
  [
    'a person\u2019s subject with a co-author line alone',
    { subject: 'Fix retry', body: 'Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>' },
    'carried',
  ],
  [
    'a person\u2019s subject with a tool\u2019s own co-author line (aider writes the message)',
    { subject: 'docs: update README.md', body: 'Co-authored-by: aider (xai/grok-code-fast-1) <aider@aider.chat>' },
    'written',
  ],
  [
    'a person\u2019s subject with Cursor\u2019s co-author line',
    { subject: 'Tidy the parser', body: 'Co-authored-by: Cursor <cursoragent@cursor.com>' },
    'written',
  ],
  [
    'a person\u2019s squash with prose whose only assistant is a suggestion account',
    {
      subject: 'Migrate the loader (#1411)',
      body: '* migrate to recordings\n\n* Apply suggestions from code review\n\nCo-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>',
    },
    'carried',
  ],
  [
    'a person\u2019s body co-authored by Gemini Code Assist\u2019s reviewer',
    {
      subject: 'Handle empty input',
      body: 'Returns early when the list is empty.\n\nCo-authored-by: gemini-code-assist[bot] <176961590+gemini-code-assist[bot]@users.noreply.github.com>',
    },
    'carried',
  ],
  [
    'a person\u2019s body with a co-author line',
    {
      subject: 'Fix retry',
      body: 'Retries twice before giving up.\n\nCo-authored-by: Cursor <cursoragent@cursor.com>',
    },
    'written',
  ],
];

describe('development corpus labels (bench/corpus)', () => {
  it('labels every attributed form assistant, whatever its date', () => {
    for (const spec of ASSISTED) {
      const [commit] = makeCommits([{ at: CUTOFF - 86400 * 400, ...spec }]);
      expect(labelOf(commit!, rules, CUTOFF), JSON.stringify(spec)).to.equal('assistant');
    }
  });

  it('strips every attribution, so that the attribution plugin finds nothing in the stripped corpus', () => {
    for (const spec of ASSISTED) {
      const [commit] = makeCommits([{ at: CUTOFF + 86400 * 1500, ...spec }]);
      expect(attributeCommit(commit!, pluginRules), `before stripping: ${JSON.stringify(spec)}`).to.not.deep.equal([]);
      const stripped = stripAttribution(commit!, rules);
      expect(attributeCommit(stripped, pluginRules), `after stripping: ${JSON.stringify(spec)}`).to.deep.equal([]);
      expect(labelRulesOf(stripped, rules)).to.deep.equal([]);
    }
  });

  it('names the assistant each commit was made with, the agent before the model it runs', () => {
    ASSISTED.forEach((spec, i) => {
      const [commit] = makeCommits([{ at: CUTOFF + 1e7, ...spec }]);
      expect(assistantOf(commit!, rules, names), JSON.stringify(spec)).to.equal(MADE_WITH[i]);
    });
    const [aider, human] = makeCommits([
      {
        at: CUTOFF + 1e7,
        subject: 'feat: Add a cache',
        body: 'Co-authored-by: aider (anthropic/claude-sonnet-4) <aider@aider.chat>',
      },
      { at: CUTOFF + 1e7, subject: 'Add a cache' },
    ]);
    expect(assistantOf(aider!, rules, names)).to.equal('aider');
    expect(assistantOf(human!, rules, names)).to.equal(null);
  });

  it('strips a prompt subject to what was asked for', () => {
    const [commit] = makeCommits([{ at: CUTOFF + 1e7, subject: 'Have Claude write the release notes' }]);
    expect(stripAttribution(commit!, rules).subject).to.equal('write the release notes');
  });

  it('labels neither a release bot named after an assistant nor an automation account, and strips the bot co-author', () => {
    const automation = compileRules().automation;
    const isAutomation = (c: { authorName: string; authorEmail: string }) =>
      automation.some((r) => r.pattern.test(c.authorName) || r.pattern.test(c.authorEmail));
    const [release, greenkeeper] = makeCommits([
      {
        at: CUTOFF + 1e7,
        subject: 'chore(release): v0.9.0',
        body: 'Co-authored-by: gemini-cli-robot <gemini-cli-robot@google.com>',
      },
      {
        at: CUTOFF - 1e7,
        subject: 'chore(package): update lodash to version 4.17.20',
        author: 'greenkeeper[bot]',
        email: 'support@greenkeeper.io',
      },
    ]);
    expect(labelOf(release!, rules, CUTOFF, isAutomation)).to.equal(null);
    expect(attributeCommit(stripAttribution(release!, rules), pluginRules)).to.deep.equal([]);
    expect(labelOf(greenkeeper!, rules, CUTOFF, isAutomation)).to.equal(null);
  });

  it('keeps the rest of the message, and puts the committer in an agent author\u2019s place', () => {
    const [commit] = makeCommits([
      {
        at: CUTOFF + 1e7,
        subject: 'Add parser',
        body: 'Parses the header.\n\nCo-Authored-By: Claude <noreply@anthropic.com>',
        author: 'claude[bot]',
        email: '41898282+claude[bot]@users.noreply.github.com',
        committer: 'Grace',
        committerEmail: 'grace@example.com',
      },
    ]);
    const stripped = stripAttribution(commit!, rules);
    expect(stripped).to.include({
      subject: 'Add parser',
      body: 'Parses the header.',
      authorName: 'Grace',
      authorEmail: 'grace@example.com',
    });
  });

  it('labels human only before the cut-off, never a bot, and a person at an AI company as a person', () => {
    const [old, recent, bot, person] = makeCommits([
      { at: CUTOFF - 1000, subject: 'Fix typo' },
      { at: CUTOFF + 1000, subject: 'Fix typo' },
      {
        at: CUTOFF - 2000,
        subject: 'Bump x',
        author: 'dependabot[bot]',
        email: '49699333+dependabot[bot]@users.noreply.github.com',
      },
      { at: CUTOFF - 3000, subject: 'Fix docs', author: 'Ada', email: 'ada@anthropic.com' },
    ]);
    expect(labelOf(old!, rules, CUTOFF)).to.equal('human');
    expect(labelOf(recent!, rules, CUTOFF)).to.equal(null);
    expect(labelOf(bot!, rules, CUTOFF)).to.equal(null);
    expect(labelOf(person!, rules, CUTOFF)).to.equal('human');
  });
  it('sorts assistant commits into written and carried as docs/scoring.md\u2019s decision table says', () => {
    for (const [row, spec, origin] of ORIGINS) {
      const [commit] = makeCommits([{ at: CUTOFF + 1e7, ...spec }]);
      expect(labelOf(commit!, rules, CUTOFF), row).to.equal('assistant');
      expect(originOf(commit!, rules), row).to.equal(origin);
    }
    const [human] = makeCommits([{ at: CUTOFF - 1000, subject: 'Add retries (#12)' }]);
    expect(originOf(human!, rules)).to.equal(null);
  });
});
