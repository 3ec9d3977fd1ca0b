export interface NetworkPolicy {
  /** `security.allow_private_networks`: permit every private range. */
  readonly allowPrivateNetworks: boolean;
  /** `security.allowed_networks`: CIDRs permitted while the rest stay refused. */
  readonly allowedNetworks: readonly string[];
}

export interface CheckedAddress {
  readonly host: string;
  readonly address: string;
  readonly family: 4 | 6;
}

/** The default of the HTTP API: nothing private is reachable. */
export const STRICT_POLICY: NetworkPolicy = Object.freeze({
  allowPrivateNetworks: false,
  allowedNetworks: Object.freeze([]),
});
