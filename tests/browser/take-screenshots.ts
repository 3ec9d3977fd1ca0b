// `pnpm screenshots`: refreshes the screenshots in docs/images with the browser tests' own pages.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeScreenshots } from './report-pages.js';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'images');
for (const file of await takeScreenshots(out)) {
  if (file.endsWith('.png')) console.log(path.relative(process.cwd(), file));
}
