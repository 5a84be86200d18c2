// Small text helpers for messages and keys, used across layers.

import { createHash } from 'node:crypto'

/** A value quoted for an error message, long strings cut at 80 characters; `missing` when absent. */
export const show = (v: unknown): string => (typeof v === 'string' && v.length > 80 ? `${JSON.stringify(v.slice(0, 80))}…` : (JSON.stringify(v) ?? 'missing'))

/** SHA-256 of UTF-8 text (ASCII inputs hash the same), base64url without padding (RFC 4648 §5). */
export const sha256Base64url = (text: string): string => createHash('sha256').update(text).digest('base64url')
