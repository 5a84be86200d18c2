// Small text helpers for messages and keys, used across layers.

/** A value quoted for an error message, long strings cut at 80 characters; `missing` when absent. */
export const show = (v: unknown): string => (typeof v === 'string' && v.length > 80 ? `${JSON.stringify(v.slice(0, 80))}…` : (JSON.stringify(v) ?? 'missing'))

/**
 * SHA-256 of UTF-8 text (ASCII inputs hash the same), base64url without padding (RFC 4648 §5). Bun's one-shot
 * hash: a third of the CPU of a node:crypto Hash object, and every DPoP request hashes its access token.
 */
export const sha256Base64url = (text: string): string => Bun.SHA256.hash(text, 'base64url')
