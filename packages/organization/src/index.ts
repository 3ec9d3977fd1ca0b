export type { OrganizationAuthor, OrganizationRepository, OrganizationResult } from './organization-result.js';
export { aggregateOrganization, mergeMonths, type RepositoryOutcome } from './aggregate.js';
export { renderOrganizationText } from './render-text.js';
