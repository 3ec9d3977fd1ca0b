import path from 'node:path';

export type ReportFormat = 'text' | 'json' | 'yaml' | 'html' | 'sarif';

/** A report path whose extension names no format: bad usage (the CLI exits 2: host/src/cli/exit-codes.ts). */
export class UsageError extends Error {
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
  '.sarif': 'sarif',
};

/** The report format a file's extension names (docs/cli.md). */
export function reportFormatFromPath(file: string): ReportFormat {
  const extension = path.extname(file).toLowerCase();
  const format = BY_EXTENSION[extension];
  if (!format) {
    throw new UsageError(
      `unknown report extension "${extension || '(none)'}" in ${file}: use .json, .txt, .html, .yaml, .yml or .sarif`,
    );
  }
  return format;
}
