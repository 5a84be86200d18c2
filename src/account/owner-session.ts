// The owner's browser sessions at the OP: a random cookie, and a record keyed by the cookie's hash.

import type { Store } from '../store/open-store.ts'
import { deleteRecord, readRecords } from '../store/records.ts'
import { cookieSessions, summarizeUserAgent } from './cookie-sessions.ts'
import type { WebId } from './ids.ts'
import type { SessionRevocations } from './app-sessions.ts'

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

export const randomId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')

const sessions = cookieSessions<LoginSession>({ kind: KIND, cookieBase: 'solopod_session', ttlMs: LOGIN_SESSION_TTL_MS })

export const sessionCookieName = sessions.cookieName

/** HttpOnly, SameSite=Lax (sent on the RP's top-level redirect to /.oidc/auth, not on cross-site POSTs), Secure under https. */
export const sessionCookie = sessions.cookie

/** Creates a session; returns it with the Set-Cookie header value. Only the cookie's hash is stored. */
export async function createLoginSession(
  store: Store,
  baseUrl: string,
  webid: WebId,
  userAgent: string | null,
  now: number,
): Promise<{ session: LoginSession; setCookie: string }> {
  const session: LoginSession = { id: randomId(), webid, createdAt: now, authTime: now, userAgent: summarizeUserAgent(userAgent) }
  return { session, setCookie: await sessions.create(store, baseUrl, session, now) }
}

/** The live session named by the request's cookie, if any. */
export const getLoginSession = sessions.get

/** Ends the session of this cookie (logout); returns the Set-Cookie value that clears it. */
export const endLoginSession = sessions.end

export async function listLoginSessions(store: Store, now: number): Promise<(LoginSession & { expiresAt: number })[]> {
  return (await sessions.list(store, now)).sort((a, b) => a.createdAt - b.createdAt)
}

/** Revokes by public id; false when there is no such live session. */
export const revokeLoginSession = sessions.revoke

/**
 * A new password ends every browser login made with the old one (a reset is often made because it
 * leaked), and with each login the app sessions it approved, as revoking it in the dashboard does.
 * `keep`: the login that changed the password in the dashboard, whose owner just typed both.
 */
export async function endOwnerLogins(
  store: Store,
  revocations: Pick<SessionRevocations, 'revokeLogin'>,
  now: number,
  keep?: string,
): Promise<{ logins: number; appSessions: number }> {
  let logins = 0
  let appSessions = 0
  for (const r of await readRecords<LoginSession>(store, KIND, now)) {
    if (r.value.id === keep) continue
    await deleteRecord(store, KIND, r.key)
    logins++
    appSessions += await revocations.revokeLogin(r.value.id, now)
  }
  return { logins, appSessions }
}
