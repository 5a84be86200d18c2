// A visitor's session: someone the owner shared with, signed in at their own Solid provider through the
// pod (visit/). Its own cookie and record kind: it never opens the owner's pages or API, which read only
// the owner's login session.

import type { Store } from '../store/open-store.ts'
import { cookieSessions, summarizeUserAgent } from './cookie-sessions.ts'
import { randomId } from './owner-session.ts'
import type { WebId } from './ids.ts'

/** A visitor signs in again after this long (their provider usually remembers them). */
export const VISITOR_SESSION_TTL_MS = 12 * 3600 * 1000

export interface VisitorSession {
  /** Public id (the owner's session list, revocation); not the cookie value. */
  readonly id: string
  readonly webid: WebId
  /** The visitor's OpenID provider, which the WebID's profile names (Solid-OIDC §5). */
  readonly issuer: string
  readonly createdAt: number
  readonly userAgent: string
}

const sessions = cookieSessions<VisitorSession>({ kind: 'visitor-session', cookieBase: 'solopod_visitor', ttlMs: VISITOR_SESSION_TTL_MS })

export async function createVisitorSession(
  store: Store,
  baseUrl: string,
  who: { webid: WebId; issuer: string },
  userAgent: string | null,
  now: number,
): Promise<{ session: VisitorSession; setCookie: string }> {
  const session: VisitorSession = { id: randomId(), webid: who.webid, issuer: who.issuer, createdAt: now, userAgent: summarizeUserAgent(userAgent) }
  return { session, setCookie: await sessions.create(store, baseUrl, session, now) }
}

export const visitorCookieName = sessions.cookieName
export const getVisitorSession = sessions.get
export const endVisitorSession = sessions.end
export const revokeVisitorSession = sessions.revoke

export async function listVisitorSessions(store: Store, now: number): Promise<(VisitorSession & { expiresAt: number })[]> {
  return (await sessions.list(store, now)).sort((a, b) => a.createdAt - b.createdAt)
}
