import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PAGE_STYLE } from '@cadence-detect/reports/page';
import { DASHBOARD_ASSETS, dashboardAsset } from '../src/dashboard/dashboard-assets.js';
import { dashboardPage, loginPage } from '../src/dashboard/dashboard-pages.js';

describe('the dashboard\u2019s assets', () => {
  it('serves the report\u2019s own style sheet, and the bundles of its type-checked browser scripts, each under its content hash', () => {
    expect(DASHBOARD_ASSETS.style.body).to.equal(PAGE_STYLE);
    for (const name of ['dashboard', 'login', 'job'] as const) {
      const asset = DASHBOARD_ASSETS[name];
      expect(asset.body, name).to.equal(readFileSync(new URL(`../dist/browser/${name}.js`, import.meta.url), 'utf8'));
      const hash = createHash('sha256').update(asset.body).digest('hex').slice(0, 16);
      expect(asset.path).to.equal(`assets/${name}.${hash}.js`);
      expect(dashboardAsset(`${name}.${hash}.js`)).to.equal(asset);
    }
    // The job list's and the job page's scripts both describe events with the one shared module.
    expect(DASHBOARD_ASSETS.dashboard.body).to.contain('commits').and.contain('detections');
    expect(DASHBOARD_ASSETS.job.body).to.contain('parsed: ');
  });

  it('draws each page in the shared shell, with the dashboard\u2019s rules of the style sheet', () => {
    for (const page of [dashboardPage(), loginPage()]) {
      expect(page.html)
        .to.contain('<body class="dashboard">')
        .and.contain(`<link rel="stylesheet" href="${DASHBOARD_ASSETS.style.path}">`);
      expect(page.html.match(/<script/g)).to.have.length(1);
      expect(page.policy)
        .to.contain("script-src 'self'")
        .and.contain("style-src 'self'")
        .and.not.contain('unsafe-inline');
    }
  });
});
