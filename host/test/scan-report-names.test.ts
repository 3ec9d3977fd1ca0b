import { expect } from 'chai';
import { reportName, withReportNames } from '../src/cli/commands/scan-action.js';

describe('cadence scan: each repository report gets a file of its own', () => {
  it('names a report after its repository, nothing that leaves the folder', () => {
    expect(reportName('acme/api')).to.equal('acme--api');
    expect(reportName('group/sub/project')).to.equal('group--sub--project');
    expect(reportName('../../etc/passwd')).to.equal('etc--passwd');
    expect(reportName('..')).to.equal('repository');
    expect(reportName('a b\u202e<c>')).to.equal('a_b_c_');
  });

  it('keeps names unique when two repositories would meet (whatever the letter case)', () => {
    const named = withReportNames([
      { repository: 'acme/api', url: 'u1' },
      { repository: 'acme--api', url: 'u2' },
      { repository: 'ACME/API', url: 'u3' },
      { repository: 'acme/web', url: 'u4' },
    ]);
    expect(named.map((t) => t.reportName)).to.deep.equal(['acme--api', 'acme--api-2', 'ACME--API-3', 'acme--web']);
  });
});
