// Apps and sessions: approved apps (remembered consents), app sessions holding tokens, browsers
// signed in; each with revoke (the owner API's DELETE routes).

import { BASE, api } from './api.ts'
import { clear, confirmAction, formatDate, h, say, sayError } from './dom.ts'
import { accessCell, type AppAccess } from './app-access.ts'
import { scriptsAndBotsSection } from './credentials.ts'

interface Sessions {
  visitorSessions: { id: string; webid: string; issuer: string; createdAt: string; expiresAt: string; userAgent: string }[]
  loginSessions: { id: string; createdAt: string; authTime: string; expiresAt: string; userAgent: string; current: boolean }[]
  appSessions: { id: string; clientId: string; clientName: string | null; scope: string; createdAt: string; lastUsedAt: string; expiresAt: string; refreshable: boolean }[]
}
interface Person { webid: string; items: { path: string; name: string; modes: string[] }[] }
interface Consent { clientId: string; clientName: string | null; scopes: string[]; grantedAt: string; logoUri: string | null; access: AppAccess }

const section = (id: string, title: string, head: string[], rows: HTMLElement[], empty: string) =>
  h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), h('div', { class: 'table-wrap' }, h('table', { class: 'stack' },
    h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Action')))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: String(head.length + 1), class: 'muted' }, empty))))))

/**
 * The app's logo_uri as an <img> (the dashboard's CSP allows https images, and loopback ones for local
 * apps), never sending the dashboard's address along; the name beside it is the text fallback, and a
 * logo that fails to load (or that the CSP refuses) is removed rather than shown broken.
 */
const logo = (uri: string | null | undefined) => uri && /^https?:\/\//.test(uri)
  ? h('img', { src: uri, alt: '', class: 'app-logo', referrerpolicy: 'no-referrer', loading: 'lazy', onerror: (e: Event) => { (e.target as HTMLElement).remove() } })
  : null
const app = (name: string | null, clientId: string, logoUri?: string | null) => h('span', { class: 'app' }, logo(logoUri), name ? `${name} ` : '', h('code', {}, clientId))

export async function showApps(view: HTMLElement): Promise<void> {
  const [sessions, consents, people] = await Promise.all([api<Sessions>('GET', '/sessions', undefined, 'Reading sessions'), api<Consent[]>('GET', '/consents', undefined, 'Reading approved apps'),
    api<Person[]>('GET', '/people', undefined, 'Reading whom you share with')])
  const revoke = (path: string, question: string, done: string, signsMeOut = false) => () => {
    if (!confirmAction(question)) return
    // Signing this browser out: the dashboard goes back to the sign-in page
    void api('DELETE', path, undefined, done).then(() => signsMeOut ? location.assign(`${BASE}/.admin/`) : showApps(view).then(() => say(`${done}: done`))).catch(sayError)
  }
  // Last use of an approved app: the latest use of any of its sessions
  const logos = new Map(consents.map((c) => [c.clientId, c.logoUri]))
  const lastUse = new Map<string, string>()
  for (const s of sessions.appSessions) if ((lastUse.get(s.clientId) ?? '') < s.lastUsedAt) lastUse.set(s.clientId, s.lastUsedAt)
  clear(view)
  view.append(
    section('apps-h', 'Apps you approved', ['App', 'May reach', 'Scopes', 'Approved', 'Last used'], consents.map((c) => h('tr', {},
      h('td', { 'data-label': 'App' }, app(c.clientName, c.clientId, c.logoUri)),
      h('td', { 'data-label': 'May reach' }, accessCell(c.clientId, c.clientName ?? c.clientId, c.access)),
      h('td', { 'data-label': 'Scopes' }, c.scopes.join(' ')), h('td', { 'data-label': 'Approved' }, formatDate(c.grantedAt)),
      h('td', { 'data-label': 'Last used' }, lastUse.has(c.clientId) ? formatDate(lastUse.get(c.clientId)!) : 'not since'),
      h('td', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': `Revoke ${c.clientName ?? c.clientId}`,
        onclick: revoke(`/consents/${encodeURIComponent(c.clientId)}`, `Revoke ${c.clientName ?? c.clientId}? Its sessions end and it must ask you again.`, `Revoking ${c.clientName ?? c.clientId}`) }, 'Revoke')))),
    'No apps approved yet'),
    section('app-sessions-h', 'App sessions', ['App', 'Scopes', 'Last used', 'Until'], sessions.appSessions.map((s) => h('tr', {},
      h('td', { 'data-label': 'App' }, app(s.clientName, s.clientId, logos.get(s.clientId))), h('td', { 'data-label': 'Scopes' }, s.scope), h('td', { 'data-label': 'Last used' }, formatDate(s.lastUsedAt)), h('td', { 'data-label': 'Until' }, `${formatDate(s.expiresAt)}${s.refreshable ? ' (refreshable)' : ''}`),
      h('td', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': `End session of ${s.clientName ?? s.clientId}`,
        onclick: revoke(`/sessions/${encodeURIComponent(s.id)}`, `End this session of ${s.clientName ?? s.clientId}? Its tokens stop working.`, 'Ending the app session') }, 'End')))),
    'No app holds a token'),
    section('logins-h', 'Browsers signed in', ['Browser', 'Signed in', 'Until'], sessions.loginSessions.map((s) => h('tr', {},
      h('td', { 'data-label': 'Browser' }, `${s.userAgent}${s.current ? ' (this browser)' : ''}`), h('td', { 'data-label': 'Signed in' }, formatDate(s.authTime)), h('td', { 'data-label': 'Until' }, formatDate(s.expiresAt)),
      h('td', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': `Sign out ${s.userAgent}${s.current ? ' (this browser)' : ''}`,
        onclick: revoke(`/sessions/${encodeURIComponent(s.id)}`, `${s.current ? 'Sign out this browser? You will need your password again.' : `Sign out ${s.userAgent}?`} Apps you signed in to from it lose their access too.`, 'Signing out', s.current) }, 'Sign out')))),
    'None'),
    h('p', { class: 'muted' }, 'Signing a browser out also ends the app sessions you started from it.'),
    section('people-h', 'People you share with', ['Person', 'May reach'], people.map((p) => h('tr', {},
      h('td', { 'data-label': 'Person' }, h('code', {}, p.webid)),
      h('td', { 'data-label': 'May reach' }, p.items.flatMap((i, n) => [n > 0 ? ', ' : '', h('a', { href: `#/share${i.path}` }, i.name), ` (${i.modes.includes('write') ? 'change' : i.modes.includes('append') ? 'add' : 'read'})`])),
      h('td', {}))),
    'Nobody yet: share a file or folder from Files'),
    section('visitors-h', 'Visitors signed in', ['Person', 'Signed in with', 'Until'], sessions.visitorSessions.map((s) => h('tr', {},
      h('td', { 'data-label': 'Person' }, h('code', {}, s.webid)), h('td', { 'data-label': 'Signed in with' }, h('code', {}, s.issuer)), h('td', { 'data-label': 'Until' }, formatDate(s.expiresAt)),
      h('td', {}, h('button', { type: 'button', class: 'small secondary', 'aria-label': `Sign out ${s.webid}`,
        onclick: revoke(`/sessions/${encodeURIComponent(s.id)}`, `Sign ${s.webid} out of your pod? Their access stays as your sharing settings say; they can sign in again.`, 'Signing the visitor out') }, 'Sign out')))),
    'None'),
  )
  view.append(await scriptsAndBotsSection())
}
