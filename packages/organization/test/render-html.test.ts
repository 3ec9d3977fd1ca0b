import { expect } from 'chai';
import type { AuthorBreakdown, RepositoryResult } from '@cadence-detect/plugin-sdk';
import { aggregateOrganization } from '../src/index.js';
import { renderOrganizationHtml } from '../src/render-html.js';

const author = (i: number): AuthorBreakdown => ({
  author: `Author ${i}`,
  email: `author${i}@example.test`,
  commits: 200 - i,
  scored_commits: 150 - i,
  attributed: 0,
  flagged: 0,
  share: 0.01,
  assistants: {},
});

function result(authors: AuthorBreakdown[]): RepositoryResult {
  return {
    source_id: 'x',
    source_type: 'git',
    repo: 'x',
    branch: 'main',
    head_commit: 'a'.repeat(40),
    total_commits: 1000,
    suspicious_commits: 0,
    suspicions: [],
    timeline: [],
    assessment: 'clean',
    ai_share: 0.01,
    scored_commits: 800,
    attributed_commits: 0,
    automation_commits: 0,
    assistants: {},
    authors,
    months: [],
    assessment_bands: { suspicious: 0.15, likely_ai_generated: 0.5 },
    overall_score: 0.01,
    suspicion_score: 0.01,
    detections: [],
    strategy_results: [],
    metrics: {},
  } as unknown as RepositoryResult;
}

describe('the organization page\u2019s authors table', () => {
  it('shows the 50 authors with most commits, the rest behind "show all" (no script needed), a filter, and commits beside scored commits', () => {
    const org = aggregateOrganization('github:acme', [
      { repository: 'acme/app', url: 'u', result: result(Array.from({ length: 120 }, (_, i) => author(i))) },
    ]);
    const page = renderOrganizationHtml(org);
    const table = page.slice(
      page.indexOf('<table id="authors-table"'),
      page.indexOf('</table>', page.indexOf('<table id="authors-table"')),
    );
    expect(table.match(/<tr class="beyond-top"/g)).to.have.length(70);
    expect((table.match(/<tr /g) ?? []).length + (table.match(/<tr>/g) ?? []).length).to.equal(121);
    expect(page).to.contain('<input type="checkbox" id="all-authors">').and.contain('Show all 120 authors');
    expect(page).to.contain('#all-authors:checked~table.top-rows tr.beyond-top{display:table-row}');
    expect(page).to.contain('<input type="search" data-filter="authors-table"');
    expect(table).to.contain('data-key="scored"');
    // Author 0: 200 commits, 150 of them scored.
    expect(table).to.match(/Author 0<br>.*?<td class="num">200<\/td><td class="num">150<\/td>/);
  });

  it('has no "show all" when every author fits the first rows', () => {
    const org = aggregateOrganization('github:acme', [
      { repository: 'acme/app', url: 'u', result: result(Array.from({ length: 10 }, (_, i) => author(i))) },
    ]);
    const page = renderOrganizationHtml(org);
    expect(page).to.not.contain('all-authors').and.not.contain('beyond-top');
  });
});
