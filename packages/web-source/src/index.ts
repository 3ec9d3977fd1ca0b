export { parseWebsiteUrl } from './website-url.js';
export { fetchPage, MAX_REDIRECTS, DEFAULT_USER_AGENT, type FetchOptions, type FetchedPage } from './fetch-page.js';
export { parseDocument } from './parse-document.js';
export { splitSentences, countWords } from './sentences.js';
