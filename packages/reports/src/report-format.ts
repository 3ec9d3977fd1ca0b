import path from 'node:path';

export type ReportFormat = 'text' | 'json' | 'yaml' | 'html';

/** A report path whose extension names no format: bad usage (the CLI exits 2). */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const BY_EXTENSION: Record<string, ReportFormat> = {
  '.json': 'json',
  '.txt': 'text',
  '.text': 'text',
  '.html': 'html',
  '.htm': 'html',
  '.yaml': 'yaml',
  '.yml': 'yaml',
};

/** The report format a file's extension names (decisions §12). */
export function reportFormatFromPath(file: string): ReportFormat {
  const extension = path.extname(file).toLowerCase();
  const format = BY_EXTENSION[extension];
  if (!format) {
    throw new UsageError(`unknown report extension "${extension || '(none)'}" in ${file}: use .json, .txt, .html, .yaml or .yml`);
  }
  return format;
}
