// CONTRACT (to be implemented): see docs/architecture.md
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
