import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { createRepository, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';
import { assistantOfSetupPath } from '@cadence-detect/git-source';

const DAY = 86_400;
const T0 = Date.UTC(2025, 2, 3, 9) / 1000;
const ADA = { name: 'Ada Example', email: 'ada@example.test' };
const BOB = { name: 'Bob Example', email: 'bob@example.test' };

describe('assistant setup files (the real CLI)', function () {
  this.timeout(120_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-setup-');
  });
  after(() => work.remove());

  async function analyze(dir: string, extra: string[] = []): Promise<{ result: RepositoryResult; text: string }> {
    const out = path.join(work.path, `${path.basename(dir)}.json`);
    const text = path.join(work.path, `${path.basename(dir)}.txt`);
    const run = await runCadence(['analyze', dir, '-o', out, '-o', text, ...extra], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    return {
      result: JSON.parse(await readFile(out, 'utf8')) as RepositoryResult,
      text: await readFile(text, 'utf8'),
    };
  }

  it('names each file, its assistant, the commit that added it and who touched it; the text report says so', async () => {
    const dir = path.join(work.path, 'set-up');
    await mkdir(dir);
    const repo = await createRepository(dir, [
      { message: 'Start', date: T0, author: ADA, files: { 'src/a.ts': 'export const a = 1;\n' } },
    ]);
    const added = await repo.commit({
      message: 'Add project notes for Claude',
      date: T0 + DAY,
      author: ADA,
      files: { 'CLAUDE.md': '# Notes\nRun the tests with pnpm test.\n' },
    });
    const rules = await repo.commit({
      message: 'Cursor rules',
      date: T0 + 2 * DAY,
      author: BOB,
      files: { '.cursor/rules/style.mdc': 'Use two spaces.\n', 'packages/-x/AGENTS.md': 'Be brief.\n' },
    });
    await repo.commit({
      message: 'More notes',
      date: T0 + 3 * DAY,
      author: BOB,
      files: { 'CLAUDE.md': '# Notes\nRun the tests with pnpm test.\nLint first.\n' },
    });
    const { result, text } = await analyze(dir);
    expect(result.assistant_setup).to.deep.equal([
      {
        path: '.cursor/rules/style.mdc',
        assistant: 'Cursor',
        first_commit: rules,
        first_date: new Date((T0 + 2 * DAY) * 1000).toISOString(),
        commits: 1,
        authors: ['Bob Example'],
      },
      {
        path: 'CLAUDE.md',
        assistant: 'Claude Code',
        first_commit: added,
        first_date: new Date((T0 + DAY) * 1000).toISOString(),
        commits: 2,
        authors: ['Ada Example', 'Bob Example'],
      },
      {
        path: 'packages/-x/AGENTS.md',
        assistant: 'AGENTS.md',
        first_commit: rules,
        first_date: new Date((T0 + 2 * DAY) * 1000).toISOString(),
        commits: 1,
        authors: ['Bob Example'],
      },
    ]);
    expect(text).to.include('The tree is set up for Cursor (.cursor/rules/style.mdc, added 2025-03-05');
    expect(text).to.include('Claude Code (CLAUDE.md, added 2025-03-04, 2 commits by Ada Example, Bob Example)');
  });

  it('is absent from a tree without such files, and a file deleted since counts no more', async () => {
    const dir = path.join(work.path, 'plain');
    await mkdir(dir);
    const repo = await createRepository(dir, [
      { message: 'Start', date: T0, files: { 'src/a.ts': 'export const a = 1;\n', '.cursorrules': 'x\n' } },
    ]);
    await repo.commit({ message: 'Drop the rules', date: T0 + DAY, files: { '.cursorrules': null } });
    const { result, text } = await analyze(dir);
    expect(result).to.not.have.property('assistant_setup');
    expect(text).to.not.include('set up for');
  });

  it('knows the assistants by their documented files, and nothing else', () => {
    expect(assistantOfSetupPath('.github/copilot-instructions.md')).to.equal('GitHub Copilot');
    expect(assistantOfSetupPath('.github/instructions/api.instructions.md')).to.equal('GitHub Copilot');
    expect(assistantOfSetupPath('docs/GEMINI.md')).to.equal('Gemini CLI');
    expect(assistantOfSetupPath('.windsurfrules')).to.equal('Windsurf');
    expect(assistantOfSetupPath('.clinerules/testing.md')).to.equal('Cline');
    expect(assistantOfSetupPath('.aider.conf.yml')).to.equal('aider');
    expect(assistantOfSetupPath('docs/claude.md')).to.equal(null);
    expect(assistantOfSetupPath('src/cursor/rules.ts')).to.equal(null);
    expect(assistantOfSetupPath('README.md')).to.equal(null);
  });
});
