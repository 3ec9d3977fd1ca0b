export type { OrganizationAuthor, OrganizationRepository, OrganizationResult } from './organization-result.js';
export { aggregateOrganization, mergeMonths, type RepositoryOutcome } from './aggregate.js';
export { renderOrganizationText } from './render-text.js';
export { renderOrganizationHtml, ORGANIZATION_CONTENT_SECURITY_POLICY } from './render-html.js';
export { checkListingForge, forgeAuthorizationFor, parseForgeTarget, repositoriesFromForge, type GitAuthorization, type ListingFilter, type ScanTarget } from './forge-listing.js';
