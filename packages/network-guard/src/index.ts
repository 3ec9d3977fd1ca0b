export { STRICT_POLICY, type NetworkPolicy, type CheckedAddress } from './policy.js';
export { parseAddress, type ParsedAddress } from './address.js';
export { parseCidr, isValidCidr, cidrContains, type Cidr } from './cidr.js';
export { isPrivateAddress } from './private-ranges.js';
export { isAddressAllowed, resolveAndCheck } from './guard.js';
