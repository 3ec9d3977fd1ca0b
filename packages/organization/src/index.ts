export type { OrganizationAuthor, OrganizationRepository, OrganizationResult } from './organization-result.js';
export { aggregateOrganization, mergeMonths, type RepositoryOutcome } from './aggregate.js';
export { renderOrganizationText } from './render-text.js';
// The HTML page is `@cadence-detect/organization/html`: it brings the report package's page parts,
// which a scan writing JSON or text never needs.
export {
  checkListingForge,
  forgeAuthorizationFor,
  parseForgeTarget,
  repositoriesFromForge,
  type GitAuthorization,
  type ListingFilter,
  type ScanTarget,
} from './forge-listing.js';
