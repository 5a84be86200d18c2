// The owner's view of sessions: browsers signed in, applications holding tokens, remembered consents.

import type { Deps } from '../deps.ts'
import { listAppSessions } from '../account/app-sessions.ts'
import { listConsents, revokeConsent } from '../account/consents.ts'
import { listLoginSessions, revokeLoginSession, type LoginSession } from '../account/owner-session.ts'
import { csrfTokenFor } from '../http/csrf.ts'
import { breakableUrl, html, renderPage } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { log } from '../log.ts'
import { isWebUrl } from '../lib/web-url.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { accessView } from './app-access.ts'
import { listVisitorSessions, revokeVisitorSession } from '../account/visitor-sessions.ts'
import { sharedPeople } from '../policy/shared-with.ts'
import { ownerWebIdOf } from '../config.ts'
import { readablePath } from '../lib/readable-path.ts'
import { ACCESS_MODES } from '../policy/access-modes.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now' | 'revocations' | 'appScopes' | 'decider' | 'grants'>

const iso = (ms: number) => new Date(ms).toISOString()

/** GET /.admin/api/sessions: both kinds; `id` is what DELETE /.admin/api/sessions/:id takes. */
export async function readSessions(deps: AdminDeps, current: LoginSession) {
  const now = deps.now()
  const [logins, apps, visitors] = await Promise.all([listLoginSessions(deps.store, now), listAppSessions(deps.store, now), listVisitorSessions(deps.store, now)])
  return {
    visitorSessions: visitors.map((s) => ({ id: s.id, webid: s.webid, issuer: s.issuer, createdAt: iso(s.createdAt), expiresAt: iso(s.expiresAt), userAgent: s.userAgent })),
    loginSessions: logins.map((s) => ({ id: s.id, createdAt: iso(s.createdAt), authTime: iso(s.authTime), expiresAt: iso(s.expiresAt), userAgent: s.userAgent, current: s.id === current.id })),
    appSessions: apps.map((s) => ({
      id: s.sid, clientId: s.clientId, clientName: s.clientName ?? null, scope: s.scope, createdAt: iso(s.createdAt),
      lastUsedAt: iso(s.lastUsedAt), expiresAt: iso(s.expiresAt), refreshable: s.refresh !== undefined, jkt: s.jkt,
    })),
  }
}

export async function readConsents(deps: AdminDeps) {
  return Promise.all((await listConsents(deps.store, deps.now())).map(async (c) => ({
    clientId: c.clientId, clientName: c.clientName ?? null, scopes: c.scopes, grantedAt: iso(c.grantedAt),
    logoUri: isWebUrl(c.logoUri) ? c.logoUri : null,
    access: accessView(await deps.appScopes.foldersOf(c.clientId)),
  })))
}

/** Revokes a login session or an app session by id; false when neither exists. */
export async function revokeSession(deps: AdminDeps, id: string): Promise<boolean> {
  const now = deps.now()
  if (await revokeLoginSession(deps.store, id, now)) {
    // Issue 13: revoking a login ends the app sessions started from it (their refresh and access tokens)
    const apps = await deps.revocations.revokeLogin(id, now)
    log.info('admin.session_revoked', { kind: 'login', appSessions: apps })
    return true
  }
  if (await revokeVisitorSession(deps.store, id, now)) {
    log.info('admin.session_revoked', { kind: 'visitor' })
    return true
  }
  if ((await listAppSessions(deps.store, now)).some((s) => s.sid === id)) {
    await deps.revocations.revoke(id, now)
    log.info('admin.session_revoked', { kind: 'app', sid: id })
    return true
  }
  return false
}

/** GET /.admin/api/people: each person the owner's rules name, with what they may reach (what their visitor pages list). */
export async function readPeople(deps: AdminDeps) {
  const people = await sharedPeople({ store: deps.store, baseUrl: deps.cfg.baseUrl, decider: deps.decider, grants: deps.grants }, ownerWebIdOf(deps.cfg.baseUrl))
  return people.map((p) => ({ webid: p.webid, items: p.items.map((i) => ({ path: i.path, name: readablePath(i.path), modes: ACCESS_MODES.filter((m) => i.modes.has(m)) })) }))
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

const revokeButton = (action: string, field: string, value: string, csrf: string, label: string) =>
  html`<form class="inline" method="post" action="${action}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="${field}" value="${value}"><button type="submit">${label}</button></form>`

/** A cell with its column name, which narrow screens show beside the value (the table stacks there). */
const cell = (label: string, content: unknown) => html`<td data-label="${label}">${content}</td>`
const when = (iso: string) => localTime(Date.parse(iso))
const appName = (name: string | null, clientId: string, logoUri: string | null = null) =>
  html`${logoUri ? html`<img class="app-logo" src="${logoUri}" alt="" referrerpolicy="no-referrer">` : ''}${name ? html`<strong>${name}</strong><br>` : ''}<code>${breakableUrl(clientId)}</code>`

export async function renderSessionsPage(deps: AdminDeps, current: LoginSession, cookieHeader: string | null): Promise<Response> {
  const { loginSessions, appSessions, visitorSessions } = await readSessions(deps, current)
  const [consents, people] = await Promise.all([readConsents(deps), readPeople(deps)])
  const { token, setCookie } = csrfTokenFor(cookieHeader, deps.cfg.baseUrl)
  const none = (cols: number) => html`<tr><td colspan="${cols}" class="muted">none</td></tr>`
  return renderPage('sessions.html', 'Sessions', {
    webid: breakableUrl(current.webid),
    profile: current.webid,
    csrf: token,
    loginRows: html`${loginSessions.map((s) => html`<tr>${cell('Since', when(s.createdAt))}${cell('Last sign-in', when(s.authTime))}${cell('Browser', `${s.userAgent}${s.current ? ' (this browser)' : ''}`)}${cell('Action', revokeButton(ADMIN_PATHS.revokeSession, 'id', s.id, token, 'Sign out'))}</tr>`)}`,
    appRows: appSessions.length === 0 ? none(5) : html`${appSessions.map((s) => html`<tr>${cell('Application', appName(s.clientName, s.clientId))}${cell('Scopes', s.scope)}${cell('Since', when(s.createdAt))}${cell('Until', when(s.expiresAt))}${cell('Action', revokeButton(ADMIN_PATHS.revokeSession, 'id', s.id, token, 'Revoke'))}</tr>`)}`,
    visitorRows: visitorSessions.length === 0 ? none(5) : html`${visitorSessions.map((s) => html`<tr>${cell('Person', html`<code>${breakableUrl(s.webid)}</code>`)}${cell('Signed in with', html`<code>${breakableUrl(s.issuer)}</code>`)}${cell('Since', when(s.createdAt))}${cell('Until', when(s.expiresAt))}${cell('Action', revokeButton(ADMIN_PATHS.revokeSession, 'id', s.id, token, 'Sign out'))}</tr>`)}`,
    peopleRows: people.length === 0 ? none(2) : html`${people.map((p) => html`<tr>${cell('Person', html`<code>${breakableUrl(p.webid)}</code>`)}${cell('May reach', html`${p.items.map((i, n) => html`${n > 0 ? ', ' : ''}<a href="${ADMIN_PATHS.share}?path=${encodeURIComponent(i.path)}">${i.name}</a> (${i.modes.includes('write') ? 'change' : i.modes.includes('append') ? 'add' : 'read'})`)}`)}</tr>`)}`,
    consentRows: consents.length === 0 ? none(5) : html`${consents.map((c) => html`<tr>${cell('Application', appName(c.clientName, c.clientId, c.logoUri))}${cell('May reach', html`${c.access.summary} <a href="${ADMIN_PATHS.appAccess}?client_id=${encodeURIComponent(c.clientId)}" aria-label="Change what ${c.clientName ?? c.clientId} may reach">Change</a>`)}${cell('Scopes', c.scopes.join(' '))}${cell('Given', when(c.grantedAt))}${cell('Action', revokeButton(ADMIN_PATHS.revokeConsent, 'client_id', c.clientId, token, 'Revoke'))}</tr>`)}`,
  }, { headers: setCookie ? { 'set-cookie': setCookie } : {} })
}
