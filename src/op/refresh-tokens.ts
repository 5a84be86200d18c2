// Refresh tokens of one app session: `<sid>.<generation>.<mac>`, one record per family, rotated on use.

import { createHmac, timingSafeEqual } from 'node:crypto'

export interface RefreshFamily {
  /** 256-bit key of the family's MACs; stays in the store. */
  readonly secret: string
  /** The generation of the one live token; lower ones are used up. */
  readonly generation: number
}

export const newRefreshFamily = (): RefreshFamily => ({ secret: Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'), generation: 0 })

const mac = (secret: string, sid: string, generation: number) =>
  createHmac('sha256', Buffer.from(secret, 'base64url')).update(`${sid}.${generation}`).digest('base64url')

/**
 * The token of a generation. A MAC rather than a stored random value: one fixed-size record per
 * family proves that an old token is genuine (reuse → revoke the family, RFC 9700 §4.14.2)
 * without remembering every token ever issued; a forged token proves nothing and revokes nothing.
 */
export const refreshTokenOf = (sid: string, f: RefreshFamily) => `${sid}.${f.generation}.${mac(f.secret, sid, f.generation)}`

export function parseRefreshToken(token: string): { sid: string; generation: number; mac: string } | undefined {
  const m = /^([A-Za-z0-9_-]{22})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/.exec(token)
  return m ? { sid: m[1]!, generation: Number(m[2]), mac: m[3]! } : undefined
}

export function isGenuine(f: RefreshFamily, t: { sid: string; generation: number; mac: string }): boolean {
  const expected = Buffer.from(mac(f.secret, t.sid, t.generation))
  const got = Buffer.from(t.mac)
  return expected.length === got.length && timingSafeEqual(expected, got)
}
