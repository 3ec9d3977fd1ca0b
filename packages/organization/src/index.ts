export type { OrganizationAuthor, OrganizationRepository, OrganizationResult } from './organization-result.js';
export { aggregateOrganization, mergeMonths, type RepositoryOutcome } from './aggregate.js';
export { renderOrganizationText } from './render-text.js';
export { renderOrganizationHtml, ORGANIZATION_CONTENT_SECURITY_POLICY } from './render-html.js';
