// /.admin/grants: the owner's access grants (SAI data grants, GrantData) listed, made with a form and revoked,
// without JavaScript; the form and the JSON API call the same functions (grants.ts), so the page refuses
// exactly what the API refuses. GrantData names the pod's own URLs by https (grant-rules.ts): on an http pod
// the page says so instead of offering a form that could only fail.

import type { Deps } from '../deps.ts'
import { sharedByMeDone } from './shared-by-me-notices.ts'
import { HttpError } from '../http/errors.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { ownerWebIdOf } from '../config.ts'
import type { GrantEntry } from '../policy/grant-registry.ts'
import { createGrant, revokeGrant } from './grants.ts'
import type { PersonCards } from '../account/person-cards.ts'
import { agentCode, agentLabel } from './person-label.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { GRANT_REVOKED } from './taken-back-words.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'grants' | 'people'>

const INTEROP = 'http://www.w3.org/ns/solid/interop#'
const ACL = 'http://www.w3.org/ns/auth/acl#'
const MODES = ['Read', 'Append', 'Write', 'Create', 'Update', 'Delete'] as const
const SCOPES: Record<string, string> = { AllFromRegistry: 'Everything in the folder', SelectedFromRegistry: 'Selected items', Inherited: 'Inherited' }
const DONE: Record<string, string> = { created: 'Grant created', revoked: GRANT_REVOKED }

export const grantsPage = (done?: string) => `${ADMIN_PATHS.grantsPage}${done ? `?done=${done}` : ''}`
const local = (iri: string, ns: string) => (iri.startsWith(ns) ? iri.slice(ns.length) : iri)

/** Why this pod can make no grants, or undefined when it can. */
export const grantsNeedHttps = (baseUrl: string): SafeHtml | undefined =>
  baseUrl.startsWith('http:')
    ? html`Grants need an https address: this pod runs at <code>${baseUrl}</code>, and a grant names your pod's storage and your WebID by their https URLs. Start the pod with an https <code class="nowrap">--base-url</code> (with <code class="nowrap">--tls-cert</code> and <code class="nowrap">--tls-key</code>, or behind an https proxy; see <code>docs/sharing.md</code>, "Access grants") to make grants here.`
    : undefined

function row(e: GrantEntry, base: string, csrf: string, people: PersonCards): SafeHtml {
  const g = e.data
  const short = (url: string) => (url.startsWith(`${base}/`) ? url.slice(base.length) : url)
  const what = `the grant for ${g.grantee} on ${short(g.hasDataRegistration)}`
  return html`<tr><td data-label="Grantee">${agentLabel(people, g.grantee, ownerWebIdOf(base)) ?? agentCode(g.grantee)}</td>
<td data-label="Data"><code>${short(g.hasDataRegistration)}</code>${g.hasDataInstance?.length ? html`<ul class="plain">${g.hasDataInstance.map(i => html`<li><code>${short(i)}</code></li>`)}</ul>` : ''} <span class="muted">shape tree <code>${breakableUrl(g.registeredShapeTree)}</code></span></td>
<td data-label="May" class="words">${g.accessMode.map(m => local(m, ACL)).join(', ')}</td>
<td data-label="Scope" class="words">${SCOPES[local(g.scopeOfGrant, INTEROP)] ?? g.scopeOfGrant}</td>
<td data-label="Created" class="words">${localTime(e.createdAt)}<br><span class="muted">until revoked</span></td>
<td><form method="post" action="${ADMIN_PATHS.grantsRevoke}" data-enhance="confirm" data-confirm="Revoke ${what}? The access ends with the next request.">${csrfField(csrf)}<input type="hidden" name="id" value="${e.id}"><button type="submit" class="small secondary" aria-label="Revoke ${what}">Revoke</button></form></td></tr>`
}

function grantForm(csrf: string): SafeHtml {
  return html`<section class="panel" aria-labelledby="new-grant-h"><h2 id="new-grant-h">New grant</h2>
<form method="post" action="${ADMIN_PATHS.grantsPage}" class="row-form">${csrfField(csrf)}
<div><label for="grant-grantee">Grantee</label><input type="url" id="grant-grantee" name="grantee" required placeholder="https://bob.example/profile/card#me" autocomplete="off" spellcheck="false" aria-describedby="grant-grantee-hint"><p class="hint" id="grant-grantee-hint">Their WebID, an app’s client id, or a key URL (https)</p></div>
<div><label for="grant-registration">Folder (data registration)</label><input type="text" id="grant-registration" name="registration" required placeholder="/projects/" autocomplete="off" spellcheck="false" aria-describedby="grant-registration-hint"><p class="hint" id="grant-registration-hint">A folder of your pod, like /projects/</p></div>
<div><label for="grant-shape-tree">Shape tree</label><input type="url" id="grant-shape-tree" name="shapeTree" required placeholder="https://shapes.example/trees#Project" autocomplete="off" spellcheck="false" aria-describedby="grant-shape-tree-hint"><p class="hint" id="grant-shape-tree-hint">The shape tree the data follows (https URL)</p></div>
<div><label for="grant-scope">Applies to</label><select id="grant-scope" name="scope">${Object.entries(SCOPES)
    .filter(([k]) => k !== 'Inherited')
    .map(([k, v]) => html`<option value="${k}">${v}</option>`)}</select></div>
<div><label for="grant-instances">Selected items</label><textarea id="grant-instances" name="instances" rows="3" class="short" spellcheck="false" aria-describedby="grant-instances-hint"></textarea><p class="hint" id="grant-instances-hint">Only for “Selected items”: one path or URL per line, inside the folder</p></div>
<fieldset><legend>May</legend>${MODES.map(m => html`<label class="check"><input type="checkbox" name="mode" value="${m}"${m === 'Read' ? html` checked` : ''}> ${m}</label>`)}</fieldset>
<div><button type="submit">Create grant</button></div></form></section>`
}

export async function showGrantsPage(deps: AdminDeps, cookieHeader: string | null, done: unknown): Promise<Response> {
  const base = deps.cfg.baseUrl
  const list = await deps.grants.list({})
  // A grantee may be a person, an app's client id or a key: only a profile with a name is shown by it
  deps.people.learn(list.map(e => e.data.grantee))
  const https = grantsNeedHttps(base)
  const notice = typeof done === 'string' ? DONE[done] : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Access grants',
    section: ADMIN_PATHS.grantsPage,
    ...(notice ? { notice } : {}),
    body: csrf => html`<p class="muted">A grant lets a person, an app or a key use the data in one folder of your pod, all of it or selected items, until you revoke it. It counts beside the access set in Sharing.</p>
<section class="panel" aria-labelledby="grants-h"><h2 id="grants-h">Active grants</h2>
<div class="table-wrap"><table class="stack" id="grants-table"><thead><tr><th scope="col">Grantee</th><th scope="col">Data</th><th scope="col">May</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${list.length ? list.map(e => row(e, base, csrf, deps.people)) : html`<tr><td colspan="6" class="muted">No grants yet</td></tr>`}</tbody></table></div></section>
${https ? html`<section class="panel warning" id="grants-need-https" aria-labelledby="https-h"><h2 id="https-h">Grants need https</h2><p>${https}</p></section>` : grantForm(csrf)}`,
  })
}

/** A pod path (`/projects/`) becomes a URL on this pod; anything else is sent as typed. */
const toUrl = (base: string, v: string) => (v.startsWith('/') ? base + v : v)
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '')
const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string')

/** The form's fields as GrantData, checked and stored by the API's own createGrant. */
export async function submitGrantForm(deps: AdminDeps, form: Record<string, unknown>): Promise<Response> {
  const base = deps.cfg.baseUrl
  const webid = ownerWebIdOf(base)
  const scope = text(form.scope)
  const items = text(form.instances)
    .split('\n')
    .map(l => l.trim())
    .filter(Boolean)
  const grant = {
    grantee: text(form.grantee),
    grantedBy: webid,
    dataOwner: webid,
    registeredShapeTree: text(form.shapeTree),
    hasDataRegistration: toUrl(base, text(form.registration)),
    hasStorage: `${base}/`,
    scopeOfGrant: INTEROP + scope,
    accessMode: list(form.mode).map(m => ACL + m),
    // Items typed for "Everything in the folder" are sent too: the server says they do not belong there
    ...(scope === 'SelectedFromRegistry' || items.length ? { hasDataInstance: items.map(i => toUrl(base, i)) } : {}),
  }
  await createGrant(deps, deps.grants, 'application/json', JSON.stringify(grant))
  return seeOther(grantsPage('created'))
}

export async function submitGrantRevoke(deps: AdminDeps, form: Record<string, unknown>): Promise<Response> {
  const id = text(form.id)
  if (!id) throw new HttpError(400, 'invalid_field', 'id: expected the id of a grant of the list')
  await revokeGrant(deps.grants, id)
  return seeOther(form.back === 'shared' ? sharedByMeDone('revoked') : grantsPage('revoked'))
}
