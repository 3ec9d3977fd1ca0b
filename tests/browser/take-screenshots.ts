// `pnpm screenshots`: refreshes the screenshots in docs/images with the browser tests' own pages.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeDashboardScreenshots } from './dashboard-pages.js';
import { takeOrganizationScreenshot } from './organization-pages.js';
import { launchChromium, takeScreenshots } from './report-pages.js';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'images');
const browser = await launchChromium();
try {
  for (const file of [
    ...(await takeScreenshots(out, browser)),
    ...(await takeDashboardScreenshots(out, browser)),
    ...(await takeOrganizationScreenshot(out, browser)),
  ]) {
    if (file.endsWith('.png')) console.log(path.relative(process.cwd(), file));
  }
} finally {
  await browser.close();
}
