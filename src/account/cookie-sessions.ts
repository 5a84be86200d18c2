// A browser session held by a random cookie, stored under the cookie's hash with expiry: the owner's
// sign-in at the OP and a visitor's sign-in with their own pod are two kinds, with two cookies.

import type { Store } from '../store/open-store.ts'
import { deleteRecord, getRecord, putRecord, readRecords } from '../store/records.ts'
import { cookieName, parseCookies, serializeCookie } from '../http/cookies.ts'
import { sha256Base64url } from '../lib/text.ts'

export interface CookieSessionKind {
  /** The record kind (store/records.ts). */
  readonly kind: string
  /** The cookie's name before any `__Host-` prefix. */
  readonly cookieBase: string
  readonly ttlMs: number
}

const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')

/** `S.id` is public (lists, revocation); the cookie's value is never stored, only its hash. */
export function cookieSessions<S extends { readonly id: string }>(k: CookieSessionKind) {
  const nameFor = (baseUrl: string) => cookieName(k.cookieBase, baseUrl.startsWith('https:'))
  /** HttpOnly, SameSite=Lax (sent on a top-level redirect back from a provider, not on cross-site POSTs), Secure under https. */
  const cookie = (baseUrl: string, value: string, maxAgeMs: number) =>
    serializeCookie(nameFor(baseUrl), value, { maxAge: Math.floor(maxAgeMs / 1000), sameSite: 'Lax', secure: baseUrl.startsWith('https:') })
  const secretOf = (baseUrl: string, cookieHeader: string | null | undefined) => {
    const secret = parseCookies(cookieHeader).get(nameFor(baseUrl))
    return secret && /^[A-Za-z0-9_-]{43}$/.test(secret) ? secret : undefined
  }
  return {
    cookieName: nameFor,
    cookie,
    /** Stores the session; returns the Set-Cookie header value. */
    async create(store: Store, baseUrl: string, session: S, now: number): Promise<string> {
      const secret = random()
      await putRecord(store, k.kind, sha256Base64url(secret), session, now + k.ttlMs)
      return cookie(baseUrl, secret, k.ttlMs)
    },
    /** The live session the request's cookie names, if any. */
    async get(store: Store, baseUrl: string, cookieHeader: string | null | undefined, now: number): Promise<S | undefined> {
      const secret = secretOf(baseUrl, cookieHeader)
      return secret ? getRecord<S>(store, k.kind, sha256Base64url(secret), now) : undefined
    },
    /** Ends the session of this cookie; returns the Set-Cookie value that clears it. */
    async end(store: Store, baseUrl: string, cookieHeader: string | null | undefined): Promise<string> {
      const secret = secretOf(baseUrl, cookieHeader)
      if (secret) await deleteRecord(store, k.kind, sha256Base64url(secret))
      return cookie(baseUrl, '', 0)
    },
    async list(store: Store, now: number): Promise<(S & { expiresAt: number })[]> {
      return (await readRecords<S>(store, k.kind, now)).map(r => ({ ...r.value, expiresAt: r.expiresAt }))
    },
    /** Revokes by public id; false when there is no such live session. */
    async revoke(store: Store, id: string, now: number): Promise<boolean> {
      for (const r of await readRecords<S>(store, k.kind, now)) {
        if (r.value.id === id) {
          await deleteRecord(store, k.kind, r.key)
          return true
        }
      }
      return false
    },
  }
}

/** "Firefox on Linux"-style label: enough to recognise a browser, without storing the full header. */
export function summarizeUserAgent(ua: string | null): string {
  if (!ua) return 'unknown'
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : undefined
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad/.test(ua)
        ? 'iOS'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined
  if (browser || os) return `${browser ?? 'a browser'} on ${os ?? 'an unknown system'}`
  return ua.replace(/[^\x20-\x7e]/g, '').slice(0, 40)
}
