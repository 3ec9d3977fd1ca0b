import type { FailOn } from '@cadence-detect/plugin-sdk';

/**
 * The reporter's options. The host fills them from `forges.gitlab.*` and `report.fail_on`
 * (docs/forges.md) and loads this plugin only when a token is configured.
 */
export const GITLAB_REPORT_OPTIONS = {
  type: 'object',
  properties: {
    token: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }], default: null },
    api_url: { type: 'string', minLength: 1, default: 'https://gitlab.com/api/v4' },
    merge_request_note: { type: 'boolean', default: false },
    fail_on: { enum: ['never', 'suspicious', 'likely_ai_generated'], default: 'never' },
  },
  additionalProperties: false,
} as const;

export type { FailOn };

export interface GitlabReportOptions {
  readonly token: string | null;
  readonly api_url: string;
  readonly merge_request_note: boolean;
  readonly fail_on: FailOn;
}
