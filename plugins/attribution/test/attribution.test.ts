import { expect } from 'chai';
import { makeCommits, runPlugin, type CommitSpec } from '@cadence-detect/plugin-testkit';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import attribution, { builtInAutomationIds, builtInRuleIds, readAuthorshipLog } from '../src/index.js';

const T0 = Date.parse('2025-06-02T09:00:00Z') / 1000;

/** One commit after a plain one, so that the attributed commit is never the root. */
function pair(spec: Omit<CommitSpec, 'at'>): ReturnType<typeof makeCommits> {
  return makeCommits([
    { at: T0, subject: 'Start' },
    { at: T0 + 3600, subject: 'Change', ...spec },
  ]);
}

async function attributionOf(spec: Omit<CommitSpec, 'at'>) {
  const commits = pair(spec);
  const run = await runPlugin(attribution, { commits });
  return { detections: run.detectionsOf('attribution'), commits, run };
}

/** Each built-in rule with a commit it must fire on (messages and identities written for these tests). */
const FIRES: { rule: string; assistant: string; spec: Omit<CommitSpec, 'at'>; quote: string }[] = [
  {
    rule: 'claude-code-coauthor',
    assistant: 'Claude Code',
    spec: { body: 'Adds the parser.\n\nCo-Authored-By: Claude <noreply@anthropic.com>' },
    quote: 'Co-Authored-By: Claude <noreply@anthropic.com>',
  },
  {
    rule: 'claude-code-coauthor',
    assistant: 'Claude Code',
    spec: { body: 'Co-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>' },
    quote: 'Claude Opus 4.5',
  },
  {
    rule: 'claude-code-footer',
    assistant: 'Claude Code',
    spec: { body: 'Tidy up.\n\n\u{1F916} Generated with [Claude Code](https://claude.com/claude-code)' },
    quote: 'Generated with [Claude Code]',
  },
  {
    rule: 'claude-code-footer',
    assistant: 'Claude Code',
    spec: { body: 'Generated with [Claude Code](https://claude.ai/code)' },
    quote: 'claude.ai/code',
  },
  {
    rule: 'claude-session',
    assistant: 'Claude Code',
    spec: { body: 'Claude-Session: https://claude.ai/code/session_01abc' },
    quote: 'Claude-Session',
  },
  {
    rule: 'claude-account',
    assistant: 'Claude',
    spec: { author: 'claude[bot]', email: '41898282+claude[bot]@users.noreply.github.com' },
    quote: 'claude[bot]',
  },
  {
    rule: 'claude-bot-coauthor',
    assistant: 'Claude',
    spec: { body: 'Co-authored-by: claude[bot] <209825114+claude[bot]@users.noreply.github.com>' },
    quote: 'claude[bot]',
  },
  {
    rule: 'copilot-agent-account',
    assistant: 'GitHub Copilot',
    spec: { author: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' },
    quote: 'copilot-swe-agent[bot]',
  },
  {
    rule: 'copilot-coauthor',
    assistant: 'GitHub Copilot',
    spec: { body: 'Co-authored-by: Copilot <175728472+Copilot@users.noreply.github.com>' },
    quote: 'Copilot',
  },
  {
    rule: 'copilot-autofix-coauthor',
    assistant: 'GitHub Copilot',
    spec: {
      body: 'Co-authored-by: Copilot Autofix powered by AI <62310815+github-advanced-security[bot]@users.noreply.github.com>',
    },
    quote: 'Copilot Autofix',
  },
  {
    // The coding agent's commits of 2026 end with a link to the session's logs.
    rule: 'copilot-agent-logs',
    assistant: 'GitHub Copilot',
    spec: {
      body: 'Address review feedback on the parser.\n\nAgent-Logs-Url: https://github.com/acme/widgets/sessions/7b0c4a52-93e1-4d1f-a8c2-5e6f7a8b9c0d',
    },
    quote: 'Agent-Logs-Url',
  },
  {
    rule: 'copilot-session',
    assistant: 'GitHub Copilot',
    spec: { body: 'Copilot-Session: 18e70efa-1b2d-4290-ba51-b82998db4ff8' },
    quote: 'Copilot-Session',
  },
  {
    rule: 'copilot-coauthor',
    assistant: 'GitHub Copilot',
    spec: { body: 'Co-authored-by: Copilot App <223556219+Copilot@users.noreply.github.com>' },
    quote: 'Copilot App',
  },
  {
    rule: 'cursor-agent',
    assistant: 'Cursor',
    spec: { author: 'Cursor Agent', email: 'cursoragent@cursor.com' },
    quote: 'cursoragent@cursor.com',
  },
  {
    rule: 'cursor-coauthor',
    assistant: 'Cursor',
    spec: { body: 'Co-authored-by: Cursor <cursoragent@cursor.com>' },
    quote: 'cursoragent@cursor.com',
  },
  { rule: 'cursor-made-with', assistant: 'Cursor', spec: { body: 'Made-with: Cursor' }, quote: 'Made-with: Cursor' },
  {
    rule: 'aider-subject',
    assistant: 'aider',
    spec: { subject: 'aider: add retry to the fetcher' },
    quote: 'aider: add retry',
  },
  {
    rule: 'aider-identity',
    assistant: 'aider',
    spec: { author: 'Grace Hopper (aider)', email: 'grace@example.com' },
    quote: 'Grace Hopper (aider)',
  },
  {
    rule: 'aider-coauthor',
    assistant: 'aider',
    spec: { body: 'Co-authored-by: aider (anthropic/claude-sonnet-4) <aider@aider.chat>' },
    quote: 'aider.chat',
  },
  {
    rule: 'codex-account',
    assistant: 'OpenAI Codex',
    spec: {
      author: 'chatgpt-codex-connector[bot]',
      email: '199175422+chatgpt-codex-connector[bot]@users.noreply.github.com',
    },
    quote: 'chatgpt-codex-connector',
  },
  {
    rule: 'codex-coauthor',
    assistant: 'OpenAI Codex',
    spec: { body: 'Co-authored-by: Codex <noreply@openai.com>' },
    quote: 'noreply@openai.com',
  },
  {
    rule: 'devin-account',
    assistant: 'Devin',
    spec: {
      author: 'devin-ai-integration[bot]',
      email: '158243242+devin-ai-integration[bot]@users.noreply.github.com',
    },
    quote: 'devin-ai-integration',
  },
  {
    rule: 'devin-footer',
    assistant: 'Devin',
    spec: { body: 'Generated with [Devin](https://devin.ai)' },
    quote: 'Devin',
  },
  {
    rule: 'jules-account',
    assistant: 'Google Jules',
    spec: { author: 'google-labs-jules[bot]', email: '161369871+google-labs-jules[bot]@users.noreply.github.com' },
    quote: 'google-labs-jules',
  },
  {
    rule: 'openhands-account',
    assistant: 'OpenHands',
    spec: { author: 'openhands', email: 'openhands@all-hands.dev' },
    quote: 'openhands@all-hands.dev',
  },
  {
    rule: 'gemini-coauthor',
    assistant: 'Gemini',
    spec: {
      body: 'Co-authored-by: gemini-code-assist[bot] <176961590+gemini-code-assist[bot]@users.noreply.github.com>',
    },
    quote: 'gemini-code-assist',
  },
  {
    rule: 'amp-coauthor',
    assistant: 'Amp',
    spec: { body: 'Co-authored-by: Amp <amp@ampcode.com>' },
    quote: 'amp@ampcode.com',
  },
  {
    rule: 'amp-thread',
    assistant: 'Amp',
    spec: { body: 'Amp-Thread-ID: https://ampcode.com/threads/T-1234' },
    quote: 'ampcode.com/threads',
  },
  {
    rule: 'devin-coauthor',
    assistant: 'Devin',
    spec: {
      body: 'Co-authored-by: devin-ai-integration[bot] <158243242+devin-ai-integration[bot]@users.noreply.github.com>',
    },
    quote: 'devin-ai-integration[bot]',
  },
  {
    rule: 'jules-coauthor',
    assistant: 'Google Jules',
    spec: {
      body: 'Co-authored-by: google-labs-jules[bot] <161369871+google-labs-jules[bot]@users.noreply.github.com>',
    },
    quote: 'google-labs-jules[bot]',
  },
  {
    rule: 'openhands-coauthor',
    assistant: 'OpenHands',
    spec: { body: 'Co-authored-by: openhands <openhands@all-hands.dev>' },
    quote: 'openhands@all-hands.dev',
  },
  {
    rule: 'gemini-account',
    assistant: 'Gemini',
    spec: { author: 'gemini-code-assist[bot]', email: '176961590+gemini-code-assist[bot]@users.noreply.github.com' },
    quote: 'gemini-code-assist[bot]',
  },
  {
    rule: 'amazon-q-account',
    assistant: 'Amazon Q Developer',
    spec: { author: 'amazon-q-developer[bot]', email: 'q@example.invalid' },
    quote: 'amazon-q-developer[bot]',
  },
  {
    rule: 'sweep-account',
    assistant: 'Sweep',
    spec: { author: 'sweep-ai[bot]', email: 'sweep@example.invalid' },
    quote: 'sweep-ai[bot]',
  },
  {
    rule: 'assisted-by',
    assistant: 'Claude',
    spec: {
      body: 'Signed-off-by: Ada Lovelace <ada@example.com>\nAssisted-by: Claude:claude-3-opus coccinelle sparse',
    },
    quote: 'Assisted-by: Claude:claude-3-opus',
  },
  {
    rule: 'assisted-by-via',
    assistant: 'Crush',
    spec: { body: 'Assisted-by: Claude Sonnet 4.5 via Crush <crush@example.invalid>' },
    quote: 'via Crush',
  },
  {
    rule: 'crush-footer',
    assistant: 'Crush',
    spec: { body: '\u{1F498} Generated with Crush' },
    quote: 'Generated with Crush',
  },
  {
    rule: 'crush-coauthor',
    assistant: 'Crush',
    spec: { body: 'Co-Authored-By: Crush <crush@charm.land>' },
    quote: 'crush@charm.land',
  },
  {
    rule: 'assisted-by-named',
    assistant: 'Claude Sonnet 4',
    spec: { body: 'Assisted-by: Claude Sonnet 4' },
    quote: 'Assisted-by: Claude Sonnet 4',
  },
  {
    rule: 'assisted-by-named',
    assistant: 'OpenAI Codex',
    spec: { body: 'Assisted-by: OpenAI Codex (model: gpt-5-codex, autonomous)' },
    quote: 'OpenAI Codex',
  },
  {
    rule: 'generated-by',
    assistant: 'PostHog Code',
    spec: { body: 'Generated-By: PostHog Code' },
    quote: 'PostHog Code',
  },
  {
    rule: 'generated-by',
    assistant: 'ChatGPT',
    spec: { body: 'Generated-by: ChatGPT' },
    quote: 'Generated-by: ChatGPT',
  },
  {
    rule: 'ai-assisted',
    assistant: 'unnamed assistant',
    spec: { body: 'AI-assisted: yes' },
    quote: 'AI-assisted: yes',
  },
  {
    rule: 'prompt-subject',
    assistant: 'Claude',
    spec: {
      subject: 'Ask Claude to add a retry to the token refresh',
      body: 'Prompt: add a retry with backoff to refreshToken() and a test for it',
    },
    quote: 'Ask Claude to add a retry',
  },
  {
    rule: 'prompt-subject',
    assistant: 'Claude',
    spec: { subject: 'Have Claude write the storage migration' },
    quote: 'Have Claude write',
  },
  {
    rule: 'prompt-subject',
    assistant: 'OpenAI Codex',
    spec: { subject: 'asked codex to refactor the parser' },
    quote: 'asked codex to refactor',
  },
  {
    rule: 'prompt-line',
    assistant: 'Claude Code',
    spec: {
      subject: 'Split the settings page',
      body: 'I asked Claude Code to split the settings page into tabs; reviewed by hand.',
    },
    quote: 'I asked Claude Code to split',
  },
  {
    rule: 'prompt-quoted',
    assistant: 'unnamed assistant',
    spec: {
      subject: 'Pagination for the list view',
      body: 'Prompt: "Can you add cursor pagination to the list endpoint?"',
    },
    quote: 'Can you add cursor pagination',
  },
  {
    rule: 'prompt-quoted',
    assistant: 'Gemini',
    spec: { subject: 'Dark mode', body: 'Gemini prompt: implement a dark theme toggle stored in localStorage' },
    quote: 'Gemini prompt: implement',
  },
];

/** Commits that mention people, tools or templates and must not count as attribution. */
const NEAR_MISSES: { name: string; spec: Omit<CommitSpec, 'at'> }[] = [
  {
    name: 'an Agent-Logs-Url on another host',
    spec: { body: 'Fix the build.\n\nAgent-Logs-Url: https://gitlab.com/acme/widgets/sessions/7b0c4a52-93e1-4d1f' },
  },
  {
    name: 'an Agent-Logs-Url on a host that only begins like GitHub\u2019s',
    spec: {
      body: 'Fix the build.\n\nAgent-Logs-Url: https://github.com.example.net/acme/widgets/sessions/7b0c4a52-93e1-4d1f',
    },
  },
  {
    name: 'a person\u2019s link to a session page in the body, not a trailer',
    spec: {
      body: 'See https://github.com/acme/widgets/sessions/7b0c4a52-93e1-4d1f for the discussion we had.\n\nReviewed-by: Jane Doe <jane@example.com>',
    },
  },
  {
    name: 'an Agent-Logs-Url trailer that points at a pull request, not a session',
    spec: { body: 'Fix the build.\n\nAgent-Logs-Url: https://github.com/acme/widgets/pull/12' },
  },
  { name: 'a human co-author', spec: { body: 'Pairing session.\n\nCo-authored-by: Jane Doe <jane@example.com>' } },
  {
    name: '"Claude" as a person\u2019s name, in the subject and as a co-author',
    spec: {
      subject: 'Credit Claude Shannon in the entropy docs',
      body: 'Co-authored-by: Claude Monet <claude.monet@example.org>',
    },
  },
  { name: 'a person named Claude as the author', spec: { author: 'Claude Dupont', email: 'claude@dupont.example' } },
  {
    name: 'a PR template that mentions the tools',
    spec: {
      body: '## Checklist\n- [ ] If you used Copilot, Cursor or Claude Code, say so in the description\n- [ ] Tests added',
    },
  },
  {
    name: 'a commit about the footer itself',
    spec: {
      subject: 'Document the "Generated with Claude Code" footer',
      body: 'Explains what the footer means in CONTRIBUTING.',
    },
  },
  { name: 'an AI-assisted trailer that says no', spec: { body: 'AI-assisted: no' } },
  { name: 'a code generator named in Generated-by', spec: { body: 'Generated-by: scripts/gen-bindings.py' } },
  {
    name: 'a person whose address is at an assistant\u2019s company',
    spec: { body: 'Co-authored-by: Xavier Wong <xavier@all-hands.dev>\nCo-authored-by: Ann Smith <ann@anthropic.com>' },
  },
  {
    name: 'a commit that documents the Assisted-by format with its placeholders',
    spec: { body: 'Contributors add the trailer:\n\nAssisted-by: AGENT_NAME:MODEL_VERSION' },
  },
  {
    name: 'a human Assisted-by without the AGENT:MODEL form',
    spec: { body: 'Assisted-by: Jane Doe <jane@example.com>' },
  },
  {
    name: 'a project\u2019s release robot named after an assistant, as a co-author',
    spec: { body: 'Co-authored-by: gemini-cli-robot <gemini-cli-robot@google.com>' },
  },
  {
    name: 'a change to code that calls the Claude API',
    spec: {
      subject: 'Have Claude API calls retry on 529',
      body: 'Ask the Claude client for streaming responses.\nUse Claude to generate the release summary in the bot.',
    },
  },
  {
    name: 'a person named Claude asked to do something',
    spec: { subject: 'Ask Claude Dupont to review the colour tokens', body: 'Told Claude (design) about the spacing.' },
  },
  {
    name: '"prompt" as a word of the interface',
    spec: {
      subject: 'Fix the overwrite prompt',
      body: 'Prompt: the default answer is now No.\nThe shell prompt shows the branch.\nprompts: 3 wording changes',
    },
  },
  {
    name: 'a commit about prompts for the product’s own model calls',
    spec: { subject: 'Tune the summary prompt', body: 'The system prompt now asks for three bullet points.' },
  },
];

describe('attribution plugin', () => {
  for (const { rule, assistant, spec, quote } of FIRES) {
    it(`fires on ${rule} (${quote}), naming ${assistant} and quoting what matched`, async () => {
      const { detections, commits } = await attributionOf(spec);
      expect(detections, JSON.stringify(spec)).to.have.length(1);
      const [detection] = detections;
      expect(detection).to.include({ commit: commits[1]!.hash, evidence: 'explicit', assistant });
      expect(detection!.message).to.contain(`(rule ${rule})`);
      expect(detection!.message).to.contain(quote);
    });
  }

  it('has a firing example for every built-in rule', () => {
    const covered = new Set(FIRES.map((f) => f.rule));
    expect(builtInRuleIds().filter((id) => !covered.has(id))).to.deep.equal([]);
  });

  for (const { name, spec } of NEAR_MISSES) {
    it(`does not fire on ${name}`, async () => {
      const { detections } = await attributionOf(spec);
      expect(detections, detections.map((d) => d.message).join('\n')).to.deep.equal([]);
    });
  }

  it('makes an attributed commit count 1 in ai_share and counts commits per assistant', async () => {
    const commits = makeCommits([
      { at: T0, subject: 'Start' },
      { at: T0 + 3600, body: 'Co-Authored-By: Claude <noreply@anthropic.com>' },
      { at: T0 + 7200, author: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' },
      { at: T0 + 10800, body: 'Co-Authored-By: Claude <noreply@anthropic.com>' },
    ]);
    const { result } = await runPlugin(attribution, { commits });
    expect(result.attributed_commits).to.equal(3);
    expect(result.assistants).to.deep.equal({ 'Claude Code': 2, 'GitHub Copilot': 1 });
    expect(result.suspicions.map((s) => s.evidence)).to.deep.equal(['explicit', 'explicit', 'explicit']);
    // Without the model, the plain commit scores nothing: 3 of 4 scored commits count 1.
    expect(result.ai_share).to.equal(0.75);
    expect(result.assessment).to.equal('likely_ai_generated');
    const copilot = result.authors.find((a) => a.author === 'copilot-swe-agent[bot]');
    expect(copilot).to.include({ commits: 1, attributed: 1, flagged: 1, share: 1 });
  });

  it('takes extra rules from its options, and refuses a rule that is not a valid pattern', async () => {
    const commits = pair({ body: 'Tool: acme-coder 2.1' });
    const rules = [{ id: 'acme', assistant: 'Acme Coder', kind: 'trailer', key: 'tool', pattern: '^acme-coder\\b' }];
    const run = await runPlugin(attribution, { commits }, { options: { rules } });
    expect(run.detectionsOf('attribution')[0]).to.include({ assistant: 'Acme Coder' });
    const broken = await runPlugin(attribution, { commits }, { options: { rules: [{ ...rules[0], pattern: '(' }] } });
    expect(broken.strategy('attribution').error).to.match(/attribution rule "acme"/);
    await runPlugin(
      attribution,
      { commits },
      { options: { rules: [{ id: 'x', assistant: 'X', kind: 'nowhere', pattern: 'x' }] } },
    ).then(
      () => expect.fail('an unknown rule kind was accepted'),
      (error: Error) => expect(error.message).to.match(/kind/),
    );
  });

  describe('agent branches', () => {
    const commits = makeCommits([{ at: T0 }, { at: T0 + 60 }]);

    it('attributes a push to claude/… to Claude Code', async () => {
      const { result } = await runPlugin(attribution, { commits, branch: 'claude/issue-12-20250602-0900', push: true });
      expect(result.attributed_commits).to.equal(2);
      expect(result.detections[0]!.message).to.contain('branch "claude/issue-12-20250602-0900"');
    });

    it('says nothing of a branch when the whole history is analyzed, or of a branch without an agent prefix', async () => {
      expect((await runPlugin(attribution, { commits, branch: 'claude/x' })).result.attributed_commits).to.equal(0);
      expect(
        (await runPlugin(attribution, { commits, branch: 'feature/claude-docs', push: true })).result
          .attributed_commits,
      ).to.equal(0);
    });
  });

  describe('Git AI notes (refs/notes/ai)', () => {
    const NOTE = [
      'src/main.rs',
      '  s_c9883b05a2487d::t_9f8e7d6c5b4a32 1-10,15-20',
      '  h_31dce776f88375 42-50',
      'src/lib.rs',
      '  s_e7f2a90b31cc48::t_deadbeef012345 1-50',
      '---',
      JSON.stringify({
        schema_version: 'authorship/3.0.0',
        base_commit_sha: 'a'.repeat(40),
        prompts: {},
        humans: { h_31dce776f88375: { author: 'Dev <dev@example.com>' } },
        sessions: {
          s_c9883b05a2487d: { agent_id: { tool: 'cursor', id: 'x', model: 'claude-sonnet-4-5' } },
          s_e7f2a90b31cc48: { agent_id: { tool: 'claude', id: 'y', model: 'claude-sonnet-4-5' } },
        },
      }),
    ].join('\n');

    it('reads the attested AI lines and the agents of a note', () => {
      expect(readAuthorshipLog(NOTE)).to.deep.equal({
        tools: ['cursor', 'claude'],
        models: ['claude-sonnet-4-5'],
        aiLines: 66,
        humanLines: 9,
        files: 2,
      });
    });

    it('gives nothing for a note of human lines only, or text that is no authorship log', () => {
      expect(
        readAuthorshipLog('src/a.rs\n  h_31dce776f88375 1-5\n---\n{"schema_version":"authorship/3.0.0","prompts":{}}'),
      ).to.equal(null);
      expect(readAuthorshipLog('Reviewed-by: someone')).to.equal(null);
      expect(readAuthorshipLog('src/a.rs\n  abcd1234abcd1234 1-5\n---\n{"schema_version":"other/1"}')).to.equal(null);
    });

    let temp: TempDir;
    beforeEach(async () => {
      temp = await makeTempDir('cadence-notes-');
    });
    afterEach(() => temp.remove());

    it('attributes a commit that has a note in a real repository, and nothing when the repository has no notes', async () => {
      const repo = await createRepository(temp.path, [
        { message: 'Start', date: T0, addLines: 5 },
        { message: 'Add the parser', date: T0 + 3600, addLines: 60 },
      ]);
      const plain = await runPlugin(attribution, { repository: repo.dir });
      expect(plain.result.attributed_commits).to.equal(0);
      await repo.git(['notes', '--ref=ai', 'add', '-m', NOTE, repo.hashes[1]!]);
      const noted = await runPlugin(attribution, { repository: repo.dir });
      expect(noted.result.attributed_commits).to.equal(1);
      const [detection] = noted.detectionsOf('attribution');
      expect(detection).to.include({ commit: repo.hashes[1], assistant: 'Cursor', evidence: 'explicit' });
      expect(detection!.message).to.contain('refs/notes/ai: 66 lines in 2 files by cursor, claude');
    });
  });
});

/** Each built-in automation rule with an account it must recognise (identities as the services use them). */
const AUTOMATION: { rule: string; author: string; email: string }[] = [
  { rule: 'dependabot', author: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' },
  { rule: 'renovate', author: 'renovate[bot]', email: '29139614+renovate[bot]@users.noreply.github.com' },
  { rule: 'github-actions', author: 'github-actions', email: 'actions@github.com' },
  {
    rule: 'pre-commit-ci',
    author: 'pre-commit-ci[bot]',
    email: '66853113+pre-commit-ci[bot]@users.noreply.github.com',
  },
  { rule: 'greenkeeper', author: 'greenkeeper[bot]', email: 'support@greenkeeper.io' },
  { rule: 'snyk', author: 'snyk-bot', email: 'snyk-bot@snyk.io' },
  { rule: 'imgbot', author: 'ImgBotApp', email: 'ImgBotHelp@gmail.com' },
  {
    rule: 'allcontributors',
    author: 'allcontributors[bot]',
    email: '46447321+allcontributors[bot]@users.noreply.github.com',
  },
  { rule: 'release-bot', author: 'semantic-release-bot', email: 'semantic-release-bot@martynus.net' },
  { rule: 'gitlab-bot', author: 'project_4211_bot_3f2a9c', email: 'project_4211_bot_3f2a9c@noreply.gitlab.example' },
  { rule: 'bot-account', author: 'stale[bot]', email: '26384082+stale[bot]@users.noreply.github.com' },
];

describe('attribution plugin: automation accounts', () => {
  for (const { rule, author, email } of AUTOMATION) {
    it(`marks ${author}'s commit as automation (rule ${rule}), never as attribution`, async () => {
      const { detections, commits } = await attributionOf({
        author,
        email,
        subject: 'chore(deps): bump x from 1.0.0 to 1.0.1',
      });
      expect(detections).to.have.length(1);
      expect(detections[0]).to.include({ commit: commits[1]!.hash, evidence: 'automation', score: 0 });
      expect(detections[0]!.message).to.contain(`(rule ${rule})`).and.to.contain(author);
    });
  }

  it('has an example for every built-in automation rule', () => {
    const covered = new Set(AUTOMATION.map((a) => a.rule));
    expect(builtInAutomationIds().filter((id) => !covered.has(id))).to.deep.equal([]);
  });

  it('lets explicit attribution win on a bot\u2019s commit, and keeps agent accounts assistants', async () => {
    const coauthored = await attributionOf({
      author: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com',
      body: 'Co-authored-by: Claude <noreply@anthropic.com>',
    });
    expect(coauthored.detections.map((d) => d.evidence)).to.deep.equal(['explicit']);
    const agent = await attributionOf({
      author: 'copilot-swe-agent[bot]',
      email: '198982749+Copilot@users.noreply.github.com',
    });
    expect(agent.detections.map((d) => [d.evidence, d.assistant])).to.deep.equal([['explicit', 'GitHub Copilot']]);
  });

  it('looks at the author only: a person\u2019s commit committed by a bot or the forge stays a person\u2019s', async () => {
    const { detections } = await attributionOf({
      author: 'Grace Hopper',
      email: 'grace@example.com',
      committer: 'github-actions[bot]',
      committerEmail: '41898282+github-actions[bot]@users.noreply.github.com',
    });
    expect(detections).to.deep.equal([]);
  });

  it('takes more accounts from its options, and refuses a pattern that is not valid', async () => {
    const commits = pair({ author: 'Deploy Bot', email: 'deploy@example.test' });
    const run = await runPlugin(attribution, { commits }, { options: { automation: ['^deploy bot$'] } });
    expect(run.detectionsOf('attribution').map((d) => d.evidence)).to.deep.equal(['automation']);
    const broken = await runPlugin(attribution, { commits }, { options: { automation: ['(unclosed'] } });
    expect(broken.strategy('attribution').error).to.contain('automation rule "automation[0]"');
  });
});
