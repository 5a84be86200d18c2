// Browsers the owner has signed in from before: a random cookie set at each successful sign-in, stored
// only as its hash (as login sessions are). It proves nothing by itself — the password is still asked —
// but a device holding one is not refused because strangers used up the account's failure limit
// (OWASP Authentication Cheat Sheet, "Device cookies"; Keycloak's and Okta's known-device rule).

import type { Store } from '../store/open-store.ts'
import { cookieSessions } from './cookie-sessions.ts'
import { randomId } from './owner-session.ts'

const KIND = 'known-device'
/** Longer than a sign-in (14 days): the owner who signs in twice a year is still known. */
export const KNOWN_DEVICE_TTL_MS = 400 * 24 * 3600 * 1000

export interface KnownDevice {
  /** Public id: the key of its own failure limit, never the cookie's value. */
  readonly id: string
  readonly createdAt: number
}

const devices = cookieSessions<KnownDevice>({ kind: KIND, cookieBase: 'solopod_device', ttlMs: KNOWN_DEVICE_TTL_MS })

/** The device the request's cookie names, if it is one the owner signed in from. */
export const getKnownDevice = (store: Store, baseUrl: string, cookieHeader: string | null, now: number) => devices.get(store, baseUrl, cookieHeader, now)

/** After a successful sign-in: the Set-Cookie value that makes (or keeps) this browser known, renewed for its full time. */
export async function rememberDevice(store: Store, baseUrl: string, known: KnownDevice | undefined, cookieHeader: string | null, now: number): Promise<string> {
  // a new cookie each time (as for the session), the old record dropped: a copied cookie stops working at the owner's next sign-in
  if (known) await devices.end(store, baseUrl, cookieHeader)
  return devices.create(store, baseUrl, { id: known?.id ?? randomId(), createdAt: known?.createdAt ?? now }, now)
}
