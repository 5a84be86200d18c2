// /.admin/sessions, "Apps and sessions": the apps the owner approved (what each may reach, with Change), app
// sessions, browsers signed in, people shared with and visitors signed in, each with its Revoke or Sign out
// form. Works without JavaScript; the script only asks before a form revokes (data-enhance="confirm").

import { agentCode, agentLabel } from './person-label.ts'
import { ownerWebIdOf } from '../config.ts'
import type { Deps } from '../deps.ts'
import type { LoginSession } from '../account/owner-session.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { readConsents, readPeople, readSessions, type AdminDeps } from './sessions.ts'

/** What the page says after a form's change, by the `done` code its answer sent it back with. */
const NOTICES: Record<string, string> = {
  revoked: 'Revoked: its tokens are refused from now on; it must ask you again',
  ended: 'Session ended: its tokens are refused from now on',
  signed_out: 'Signed out: that browser needs the password again, and the apps started from it lost their access',
  visitor: 'Visitor signed out',
  access: "Access changed: it holds from the app's next request",
}

/** A one-button form; `question` is asked first when the script runs (a form without it just posts). */
const revokeForm = (o: { action: string; field: string; value: string; csrf: string; label: string; ariaLabel: string; question: string }) =>
  html`<form class="inline" method="post" action="${o.action}" data-enhance="confirm" data-confirm="${o.question}">${csrfField(o.csrf)}<input type="hidden" name="${o.field}" value="${o.value}"><button type="submit" class="small secondary" aria-label="${o.ariaLabel}">${o.label}</button></form>`

/** A cell with its column name, which narrow screens show beside the value (the table stacks there). */
const cell = (label: string, content: unknown) => html`<td data-label="${label}">${content}</td>`
/** The row's form: no column name beside it on a phone, the button says what it does. */
const actionCell = (content: unknown) => html`<td class="row-action">${content}</td>`
const when = (iso: string) => localTime(Date.parse(iso))

/** The app's logo (never sending the dashboard's address along), its name, its client id. */
const appName = (name: string | null, clientId: string, logoUri: string | null = null) =>
  html`${logoUri ? html`<img class="app-logo" src="${logoUri}" alt="" referrerpolicy="no-referrer">` : ''}${name ? html`<strong>${name}</strong><br>` : ''}<code>${breakableUrl(clientId)}</code>`

/** A titled table; the last column is the row's form, its header read but not shown. */
function section(id: string, title: string, intro: string, head: readonly string[], rows: readonly SafeHtml[], empty: string, action = true): SafeHtml {
  const cols = head.length + (action ? 1 : 0)
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${intro ? html`<p class="muted">${intro}</p>` : ''}
<div class="table-wrap"><table class="stack"><thead><tr>${head.map(c => html`<th scope="col">${c}</th>`)}${action ? html`<th scope="col"><span class="visually-hidden">Action</span></th>` : ''}</tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="${cols}" class="muted">${empty}</td></tr>`}</tbody></table></div></section>`
}

export async function showSessionsPage(
  deps: AdminDeps & Pick<Deps, 'resources' | 'people'>,
  current: LoginSession,
  cookieHeader: string | null,
  done: unknown,
): Promise<Response> {
  const [{ loginSessions, appSessions, visitorSessions }, consents, people] = await Promise.all([
    readSessions(deps, current),
    readConsents(deps),
    readPeople(deps),
  ])
  // An approved app was last used when any of its sessions was; with none open the pod does not know ("not since" read as
  // half a sentence)
  deps.people.learn([...people.map(p => p.webid), ...visitorSessions.map(s => s.webid)])
  const owner = ownerWebIdOf(deps.cfg.baseUrl)
  const person = (webid: string) => agentLabel(deps.people, webid, owner) ?? agentCode(webid)
  const lastUse = new Map<string, string>()
  for (const s of appSessions) if ((lastUse.get(s.clientId) ?? '') < s.lastUsedAt) lastUse.set(s.clientId, s.lastUsedAt)
  const logos = new Map(consents.map(c => [c.clientId, c.logoUri]))
  const notice = typeof done === 'string' ? NOTICES[done] : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Apps and sessions',
    section: ADMIN_PATHS.sessions,
    ...(notice ? { notice } : {}),
    body: csrf => html`${section(
      'apps-h',
      'Apps you approved',
      'Revoking an app ends its sessions; it must ask you again.',
      ['App', 'May reach', 'Scopes', 'Approved', 'Last used'],
      consents.map(c => {
        const name = c.clientName ?? c.clientId
        return html`<tr>${cell('App', appName(c.clientName, c.clientId, c.logoUri))}
${cell('May reach', html`<span class="access-summary">${c.access.summary}</span> <a href="${ADMIN_PATHS.appAccess}?client_id=${encodeURIComponent(c.clientId)}" aria-label="Change what ${name} may reach">Change</a>`)}
${cell('Scopes', c.scopes.join(' '))}${cell('Approved', when(c.grantedAt))}${cell('Last used', lastUse.has(c.clientId) ? when(lastUse.get(c.clientId)!) : html`<span class="muted">no open session</span>`)}
${actionCell(revokeForm({ action: ADMIN_PATHS.revokeConsent, field: 'client_id', value: c.clientId, csrf, label: 'Revoke', ariaLabel: `Revoke ${name}`, question: `Revoke ${name}? Its sessions end and it must ask you again.` }))}</tr>`
      }),
      'No apps approved yet',
    )}
${section(
  'app-sessions-h',
  'App sessions',
  '',
  ['App', 'Scopes', 'Last used', 'Until'],
  appSessions.map(s => {
    const name = s.clientName ?? s.clientId
    return html`<tr>${cell('App', appName(s.clientName, s.clientId, logos.get(s.clientId) ?? null))}${cell('Scopes', s.scope)}${cell('Last used', when(s.lastUsedAt))}
${cell('Until', html`${when(s.expiresAt)}${s.refreshable ? ' (refreshable)' : ''}`)}
${actionCell(revokeForm({ action: ADMIN_PATHS.revokeSession, field: 'id', value: s.id, csrf, label: 'End', ariaLabel: `End session of ${name}`, question: `End this session of ${name}? Its tokens stop working.` }))}</tr>`
  }),
  'No app holds a token',
)}
${section(
  'logins-h',
  'Browsers signed in',
  'Signing a browser out also ends the app sessions you started from it.',
  ['Browser', 'Signed in', 'Until'],
  loginSessions.map(s => {
    const browser = `${s.userAgent}${s.current ? ' (this browser)' : ''}`
    const question = `${s.current ? 'Sign out this browser? You will need your password again.' : `Sign out ${s.userAgent}?`} Apps you signed in to from it lose their access too.`
    return html`<tr>${cell('Browser', browser)}${cell('Signed in', when(s.authTime))}${cell('Until', when(s.expiresAt))}
${actionCell(revokeForm({ action: ADMIN_PATHS.revokeSession, field: 'id', value: s.id, csrf, label: 'Sign out', ariaLabel: `Sign out ${browser}`, question }))}</tr>`
  }),
  'None',
)}
${section(
  'people-h',
  'People you share with',
  "Each person your access rules name, with what they may open after signing in with their own pod. Change it on the item's sharing page.",
  ['Person', 'May reach'],
  people.map(
    p =>
      html`<tr>${cell('Person', person(p.webid))}${cell('May reach', html`${p.items.map((i, n) => html`${n > 0 ? ', ' : ''}<a href="${ADMIN_PATHS.share}?path=${encodeURIComponent(i.path)}">${i.name}</a> (${i.modes.includes('write') ? 'change' : i.modes.includes('append') ? 'add' : 'read'})`)}`)}</tr>`,
  ),
  'Nobody yet: share a file or folder from Files',
  false,
)}
${section(
  'visitors-h',
  'Visitors signed in',
  'People you shared with who signed in here with their own pod. Signing one out ends their visit; taking away their access works on their next click either way.',
  ['Person', 'Signed in with', 'Until'],
  visitorSessions.map(
    s =>
      html`<tr>${cell('Person', person(s.webid))}${cell('Signed in with', html`<code>${breakableUrl(s.issuer)}</code>`)}${cell('Until', when(s.expiresAt))}
${actionCell(revokeForm({ action: ADMIN_PATHS.revokeSession, field: 'id', value: s.id, csrf, label: 'Sign out', ariaLabel: `Sign out ${s.webid}`, question: `Sign ${s.webid} out of your pod? Their access stays as your sharing settings say; they can sign in again.` }))}</tr>`,
  ),
  'None',
)}`,
  })
}
