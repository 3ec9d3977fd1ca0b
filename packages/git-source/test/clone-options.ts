/** Open options and network policies the clone tests share. */
export const base = { timeoutMs: 20_000, maxSizeBytes: 512 * 1024 * 1024, policy: null };
export const loopbackAllowed = { allowPrivateNetworks: false, allowedNetworks: ['127.0.0.0/8'] };
export const strict = { allowPrivateNetworks: false, allowedNetworks: [] };
