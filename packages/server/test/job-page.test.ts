import { expect } from 'chai';
import { jobPage } from '../src/dashboard/job-page.js';

const HOSTILE = `<img src=x onerror="alert(1)"><script>alert(2)</script>\u202e`;

describe('the job page before a report exists', () => {
  it('escapes every string of the job, follows a running job with its script, and shows how an ended one ended', () => {
    const running = jobPage({ id: 'job-1', status: 'running', repo: `acme/${HOSTILE}`, error_code: null, error: null });
    expect(running.html).not.to.contain('<img').and.not.to.contain('<script>alert').and.not.to.contain('\u202e');
    expect(running.html).to.contain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(running.html).to.contain('<ol id="progress"').and.contain('The report replaces this page');
    expect(running.policy).to.contain("script-src 'self'").and.not.contain('unsafe-inline');
    expect(running.html).to.match(/<script src="\.\.\/\.\.\/assets\/job\.[0-9a-f]{16}\.js"><\/script>/);
    const failed = jobPage({
      id: 'job-2',
      status: 'failed',
      repo: 'acme/app',
      error_code: 'ERR_GIT_CLONE_FAILED',
      error: HOSTILE,
    });
    expect(failed.html).to.contain('This job ended failed (ERR_GIT_CLONE_FAILED) without a report.');
    expect(failed.html).not.to.contain('<script').and.not.to.contain('<img');
    expect(failed.html).to.match(/<link rel="stylesheet" href="\.\.\/\.\.\/assets\/dashboard\.[0-9a-f]{16}\.css">/);
    expect(failed.policy).to.contain("script-src 'none'");
  });
});
