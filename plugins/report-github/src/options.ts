import type { FailOn } from '@cadence-detect/plugin-sdk';

const nullableString = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }], default: null } as const;

/**
 * The reporter's options. The host fills them from its own settings (`forges.github.*`,
 * `report.fail_on`; docs/forges.md) and loads this plugin only when a token or an App is
 * configured; `plugin_options.report-github` sets the same keys for a deployment that loads it itself.
 */
export const GITHUB_REPORT_OPTIONS = {
  type: 'object',
  properties: {
    token: nullableString,
    app_id: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], default: null },
    /** The App's private key (PEM). */
    private_key: nullableString,
    api_url: { type: 'string', minLength: 1, default: 'https://api.github.com' },
    fail_on: { enum: ['never', 'suspicious', 'likely_ai_generated'], default: 'never' },
  },
  additionalProperties: false,
} as const;

export type { FailOn };

export interface GithubReportOptions {
  readonly token: string | null;
  readonly app_id: number | null;
  readonly private_key: string | null;
  readonly api_url: string;
  readonly fail_on: FailOn;
}
