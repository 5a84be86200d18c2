// The owner's browser sessions at the OP: a random cookie, and a record keyed by the cookie's hash.

import type { Store } from '../store/open-store.ts'
import { deleteRecord, getRecord, putRecord, readRecords } from '../store/records.ts'
import { cookieName, parseCookies, serializeCookie } from '../http/cookies.ts'
import type { WebId } from './ids.ts'
import type { SessionRevocations } from './app-sessions.ts'
import { sha256Base64url } from '../lib/text.ts'

const KIND = 'login-session'
export const LOGIN_SESSION_TTL_MS = 14 * 24 * 3600 * 1000

export interface LoginSession {
  /** Public id (admin list, revocation); not the cookie value. */
  readonly id: string
  readonly webid: WebId
  readonly createdAt: number
  /** When the owner last typed the password in this session: OIDC `auth_time`, `max_age`. */
  readonly authTime: number
  /** A short User-Agent summary shown in the session list. */
  readonly userAgent: string
}

const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
export const randomId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')

export const sessionCookieName = (baseUrl: string) => cookieName('solopod_session', baseUrl.startsWith('https:'))

/** HttpOnly, SameSite=Lax (sent on the RP's top-level redirect to /.oidc/auth, not on cross-site POSTs), Secure under https. */
export function sessionCookie(baseUrl: string, value: string, maxAgeMs: number): string {
  return serializeCookie(sessionCookieName(baseUrl), value, { maxAge: Math.floor(maxAgeMs / 1000), sameSite: 'Lax', secure: baseUrl.startsWith('https:') })
}

/** Creates a session; returns it with the Set-Cookie header value. Only the cookie's hash is stored. */
export async function createLoginSession(store: Store, baseUrl: string, webid: WebId, userAgent: string | null, now: number): Promise<{ session: LoginSession; setCookie: string }> {
  const secret = random()
  const session: LoginSession = { id: randomId(), webid, createdAt: now, authTime: now, userAgent: summarizeUserAgent(userAgent) }
  await putRecord(store, KIND, sha256Base64url(secret), session, now + LOGIN_SESSION_TTL_MS)
  return { session, setCookie: sessionCookie(baseUrl, secret, LOGIN_SESSION_TTL_MS) }
}

/** The live session named by the request's cookie, if any. */
export async function getLoginSession(store: Store, baseUrl: string, cookieHeader: string | null | undefined, now: number): Promise<LoginSession | undefined> {
  const secret = parseCookies(cookieHeader).get(sessionCookieName(baseUrl))
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined
  return getRecord<LoginSession>(store, KIND, sha256Base64url(secret), now)
}

/** Ends the session of this cookie (logout); returns the Set-Cookie value that clears it. */
export async function endLoginSession(store: Store, baseUrl: string, cookieHeader: string | null | undefined): Promise<string> {
  const secret = parseCookies(cookieHeader).get(sessionCookieName(baseUrl))
  if (secret) await deleteRecord(store, KIND, sha256Base64url(secret))
  return sessionCookie(baseUrl, '', 0)
}

export async function listLoginSessions(store: Store, now: number): Promise<(LoginSession & { expiresAt: number })[]> {
  return (await readRecords<LoginSession>(store, KIND, now)).map((r) => ({ ...r.value, expiresAt: r.expiresAt })).sort((a, b) => a.createdAt - b.createdAt)
}

/** Revokes by public id; false when there is no such live session. */
export async function revokeLoginSession(store: Store, id: string, now: number): Promise<boolean> {
  for (const r of await readRecords<LoginSession>(store, KIND, now)) {
    if (r.value.id === id) { await deleteRecord(store, KIND, r.key); return true }
  }
  return false
}

/**
 * A new password ends every browser login made with the old one (a reset is often made because it
 * leaked), and with each login the app sessions it approved, as revoking it in the dashboard does.
 */
export async function endOwnerLogins(store: Store, revocations: Pick<SessionRevocations, 'revokeLogin'>, now: number): Promise<{ logins: number; appSessions: number }> {
  let logins = 0
  let appSessions = 0
  for (const r of await readRecords<LoginSession>(store, KIND, now)) {
    await deleteRecord(store, KIND, r.key)
    logins++
    appSessions += await revocations.revokeLogin(r.value.id, now)
  }
  return { logins, appSessions }
}

/** "Firefox on Linux"-style label: enough to recognise a browser, without storing the full header. */
function summarizeUserAgent(ua: string | null): string {
  if (!ua) return 'unknown'
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : undefined
  const os = /Windows/.test(ua) ? 'Windows' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : undefined
  if (browser || os) return `${browser ?? 'a browser'} on ${os ?? 'an unknown system'}`
  return ua.replace(/[^\x20-\x7e]/g, '').slice(0, 40)
}
