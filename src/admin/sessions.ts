// The owner's sessions and what they reach: browsers signed in, applications holding tokens, remembered
// consents, people shared with, visitors signed in; and revoking each (the page is sessions-page.ts).

import type { Deps } from '../deps.ts'
import { listAppSessions } from '../account/app-sessions.ts'
import { listConsents, revokeConsent } from '../account/consents.ts'
import { listLoginSessions, revokeLoginSession, type LoginSession } from '../account/owner-session.ts'
import { log } from '../log.ts'
import { isWebUrl } from '../lib/web-url.ts'
import { accessView } from './app-access.ts'
import { listVisitorSessions, revokeVisitorSession } from '../account/visitor-sessions.ts'
import { sharedPeople } from '../policy/shared-with.ts'
import { ownerWebIdOf } from '../config.ts'
import { readablePath } from '../lib/readable-path.ts'
import { ACCESS_MODES } from '../policy/access-modes.ts'

export type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'revocations' | 'appScopes' | 'decider' | 'grants'>

const iso = (ms: number) => new Date(ms).toISOString()

/** GET /.admin/api/sessions: both kinds; `id` is what DELETE /.admin/api/sessions/:id takes. */
export async function readSessions(deps: AdminDeps, current: LoginSession) {
  const now = deps.now()
  const [logins, apps, visitors] = await Promise.all([
    listLoginSessions(deps.store, now),
    listAppSessions(deps.store, now),
    listVisitorSessions(deps.store, now),
  ])
  return {
    visitorSessions: visitors.map(s => ({
      id: s.id,
      webid: s.webid,
      issuer: s.issuer,
      createdAt: iso(s.createdAt),
      expiresAt: iso(s.expiresAt),
      userAgent: s.userAgent,
    })),
    loginSessions: logins.map(s => ({
      id: s.id,
      createdAt: iso(s.createdAt),
      authTime: iso(s.authTime),
      expiresAt: iso(s.expiresAt),
      userAgent: s.userAgent,
      current: s.id === current.id,
    })),
    appSessions: apps.map(s => ({
      id: s.sid,
      clientId: s.clientId,
      clientName: s.clientName ?? null,
      scope: s.scope,
      createdAt: iso(s.createdAt),
      lastUsedAt: iso(s.lastUsedAt),
      expiresAt: iso(s.expiresAt),
      refreshable: s.refresh !== undefined,
      jkt: s.jkt,
    })),
  }
}

export async function readConsents(deps: AdminDeps) {
  return Promise.all(
    (await listConsents(deps.store, deps.now())).map(async c => ({
      clientId: c.clientId,
      clientName: c.clientName ?? null,
      scopes: c.scopes,
      grantedAt: iso(c.grantedAt),
      logoUri: isWebUrl(c.logoUri) ? c.logoUri : null,
      access: accessView(await deps.appScopes.foldersOf(c.clientId)),
    })),
  )
}

/** Revokes a login, visitor or app session by id: which kind it was, or undefined when none has this id. */
export async function revokeSession(deps: AdminDeps, id: string): Promise<'login' | 'visitor' | 'app' | undefined> {
  const now = deps.now()
  if (await revokeLoginSession(deps.store, id, now)) {
    // Issue 13: revoking a login ends the app sessions started from it (their refresh and access tokens)
    const apps = await deps.revocations.revokeLogin(id, now)
    log.info('admin.session_revoked', { kind: 'login', appSessions: apps })
    return 'login'
  }
  if (await revokeVisitorSession(deps.store, id, now)) {
    log.info('admin.session_revoked', { kind: 'visitor' })
    return 'visitor'
  }
  if ((await listAppSessions(deps.store, now)).some(s => s.sid === id)) {
    await deps.revocations.revoke(id, now)
    log.info('admin.session_revoked', { kind: 'app', sid: id })
    return 'app'
  }
  return undefined
}

/** GET /.admin/api/people: each person the owner's rules name, with what they may reach (what their visitor pages list). */
export async function readPeople(deps: AdminDeps) {
  const people = await sharedPeople(
    { store: deps.store, baseUrl: deps.cfg.baseUrl, decider: deps.decider, grants: deps.grants },
    ownerWebIdOf(deps.cfg.baseUrl),
  )
  return people.map(p => ({
    webid: p.webid,
    items: p.items.map(i => ({ path: i.path, name: readablePath(i.path), modes: ACCESS_MODES.filter(m => i.modes.has(m)) })),
  }))
}

/** Withdraws consent for a client and ends every session it holds. */
export async function revokeClientAccess(deps: AdminDeps, clientId: string): Promise<boolean> {
  const now = deps.now()
  const hadConsent = await revokeConsent(deps.store, clientId, now)
  const sessions = await deps.revocations.revokeClient(clientId, now)
  // Asked again, the app gets what the owner then chooses, not what it was limited to before
  if (hadConsent) await deps.appScopes.set(clientId, undefined, now)
  if (hadConsent || sessions > 0) log.info('admin.consent_revoked', { clientId, sessions })
  return hadConsent || sessions > 0
}
