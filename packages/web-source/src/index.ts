export { parseWebsiteUrl } from './website-url.js';
export { fetchPage, MAX_REDIRECTS, DEFAULT_USER_AGENT, type FetchOptions, type FetchedPage } from './fetch-page.js';
export { parseDocument, type ParseOptions } from './parse-document.js';
export { parseDocumentInWorker, DEFAULT_PARSE_HEAP_MB, type WorkerParseOptions } from './parse-in-worker.js';
export { MAX_DEPTH } from './document-walk.js';
export { splitSentences, countWords } from './sentences.js';
