// Sharing: who may do what with a resource (its own ACL and what it inherits), the share form (share-form.ts:
// written at once, a person's WebID read first), a Remove button per entry, going back to the inherited
// access behind a confirmation page, "Send it" and "Why may X do Y?". Works without JavaScript. Each
// change writes the whole ACL document from the entries (acl-entries.ts)
// with a PUT through the operations layer as the owner, which validates it (WAC §5) and refuses to lock the
// owner out of the root (409 owner_lockout). If-Match on the ACL's ETag: a change made meanwhile elsewhere
// is refused (RFC 9110 §13.1.1), never overwritten by a form built from the older document.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import type { CodeWithStatus } from '../http/refusals.ts'
import { breakableUrl, html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { ownerWebIdOf } from '../config.ts'
import { KIND_LABEL, MODES, MODE_WORDS, aclTurtle, appsText, entriesOf, givesOwnerControl, inheritedAsOwn, scopeText, type Entry } from './acl-entries.ts'
import { entryFrom, shareForm, typedQuery, webIdQuestion } from './share-form.ts'
import { checkWebId } from './webid-check.ts'
import { explainForm } from './access-explain-form.ts'
import { readAclView } from './acl-view.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { shareLinks } from './share-links.ts'
import { readablePath } from '../lib/readable-path.ts'
import type { Preconditions } from '../resources/preconditions.ts'
import { ownerActing } from './owner-acting.ts'
import { linkSection, linksOf } from './links-page.ts'
import { getLinkExpirySettings } from '../account/link-expiry.ts'
import { agentLabel } from './person-label.ts'
import type { PersonCards } from '../account/person-cards.ts'
import { LINK_REMOVED } from './taken-back-words.ts'
import { countOf } from '../lib/count-words.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'fetchDoc' | 'decider' | 'resources' | 'now' | 'linkUses' | 'people'>
type AclView = Awaited<ReturnType<typeof readAclView>>

export const sharePage = (path: string, done?: string) => `${ADMIN_PATHS.share}?path=${encodeURIComponent(path)}${done ? `&done=${done}` : ''}`
const inheritPage = (path: string) => `${ADMIN_PATHS.shareInherit}?path=${encodeURIComponent(path)}`

const DONE: Record<string, string> = {
  added: 'Shared',
  removed: 'Access removed',
  inherited: 'This item now has the access inherited from its folder',
  'link-removed': LINK_REMOVED,
}

const aclPathOf = (acl: AclView) => acl.aclUrl.slice(acl.url.length - acl.path.length)

/** The ACL document's ETag as the resource server serves it, to a HEAD as the owner ('' when the resource has none of its own). */
async function aclVersion(deps: AdminDeps, acl: AclView): Promise<string> {
  if (!acl.own) return ''
  const path = aclPathOf(acl)
  const readable = await deps.resources.read(ownerActing(deps.cfg.baseUrl), path)
  const head = await deps.resources.represent(path, readable, {
    accept: null,
    requestUrl: acl.aclUrl,
    requestHeaders: new Headers(),
    head: true,
    headers: new Headers(),
  })
  return head.headers.get('etag') ?? ''
}

function who(e: Entry, owner: string, people: PersonCards): SafeHtml | string {
  if (e.kind === 'public' || e.kind === 'authenticated') return KIND_LABEL[e.kind]
  const person = e.kind === 'agent' ? agentLabel(people, e.value, owner) : undefined
  if (person) return html`${KIND_LABEL.agent} ${person}`
  return html`${e.kind === 'agent' && e.value === owner ? 'You (owner) ' : `${KIND_LABEL[e.kind]} `}<code>${breakableUrl(e.value)}</code>`
}

/** What an entry allows, in the order the form's "They may" offers it (a document lists its modes in any order). */
const mayText = (modes: readonly string[]) =>
  [...modes]
    .sort((a, b) => rank(a) - rank(b))
    .map(m => MODE_WORDS[m] ?? m)
    .join(', ')
const rank = (mode: string) => {
  const i = (MODES as readonly string[]).indexOf(mode)
  return i < 0 ? MODES.length : i
}

/** Would removing entry `i` leave the owner without Control of this item? */
function losesControl(entries: readonly Entry[], i: number, owner: string): boolean {
  return givesOwnerControl(entries[i]!, owner) && !entries.some((e, j) => j !== i && givesOwnerControl(e, owner))
}

const nameOfEntry = (e: Entry) => (e.kind === 'public' || e.kind === 'authenticated' ? KIND_LABEL[e.kind] : e.value)

function table(
  caption: string,
  entries: Entry[],
  owner: string,
  container: boolean,
  people: PersonCards,
  remove?: (e: Entry, i: number) => SafeHtml,
): SafeHtml {
  return html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">Who</th><th scope="col">May</th><th scope="col">Applies to</th><th scope="col">Only through</th>${remove ? html`<th scope="col"><span class="muted">Action</span></th>` : ''}</tr></thead>
<tbody>${
    entries.length === 0
      ? html`<tr><td colspan="5" class="muted">Nobody</td></tr>`
      : entries.map(
          (e, i) => html`<tr>
<td data-label="Who">${who(e, owner, people)}</td><td data-label="May">${mayText(e.modes)}</td>
<td data-label="Applies to">${scopeText(e, container)}</td><td data-label="Only through">${appsText(e)}</td>
${remove ? html`<td>${remove(e, i)}</td>` : ''}</tr>`,
        )
  }</tbody></table></div>`
}

/** Statements of the ACL the table cannot show: a change here drops them, so each form asks first. */
function leftovers(acl: AclView): SafeHtml | string {
  const { count, statements } = acl.notEditable
  if (count === 0) return ''
  return html`<div class="warning" id="acl-leftovers" role="note"><p>The ACL document holds ${countOf(count, 'statement')} this page cannot show (notes, rules for other resources, unknown terms). Any change here drops ${count === 1 ? 'it' : 'them'}:</p>
<ul>${statements.map(s => html`<li><code>${s}</code></li>`)}</ul>${count > statements.length ? html`<p>… and ${count - statements.length} more.</p>` : ''}
<p>To keep them, edit <a href="${ADMIN_PATHS.edit}?path=${encodeURIComponent(aclPathOf(acl))}">the ACL document as Turtle</a> instead.</p></div>`
}

const dropField = (acl: AclView, id: string) =>
  acl.notEditable.count === 0
    ? ''
    : html`<label class="check" for="${id}"><input type="checkbox" id="${id}" name="drop" value="yes" required aria-describedby="acl-leftovers"> ${dropLabel(acl.notEditable.count)}</label>`

// Where the tick is asked (the share form above the list of statements, a row's form below it): no "above" or "below"
const dropLabel = (count: number) => `Drop the ${countOf(count, 'statement')} this page cannot show`

export async function showSharePage(deps: AdminDeps, request: Request, query: Record<string, unknown>): Promise<Response> {
  const acl = await readAclView(deps, { path: query.path ?? '/' })
  const version = await aclVersion(deps, acl)
  const container = acl.path.endsWith('/')
  const owner = ownerWebIdOf(deps.cfg.baseUrl)
  const own = acl.own ? entriesOf(acl.own) : null
  const notice = typeof query.done === 'string' ? DONE[query.done] : undefined
  const explained = await explainForm(deps, acl.path, query)
  const links = await linksOf(deps, acl.path)
  const expiry = await getLinkExpirySettings(deps.store)
  const agents = [...(own ?? []), ...inheritedAsOwn(acl.inherited?.rows ?? [], container)].filter(e => e.kind === 'agent' && e.value !== owner)
  deps.people.learn(agents.map(e => e.value))
  return renderOwnerPage(deps, request.headers.get('cookie'), {
    heading: `Who can access ${acl.path === '/' ? 'your whole pod' : readablePath(acl.path)}`,
    section: ADMIN_PATHS.share,
    ...(notice ? { notice } : {}),
    body: csrf => html`<p class="muted"><a href="${`${ADMIN_PATHS.files}?path=${encodeURIComponent(container ? acl.path : acl.path.slice(0, acl.path.lastIndexOf('/') + 1))}`}">Back to the folder in Files</a></p>
${shareForm({ path: acl.path, version, hasOwn: !!acl.own, extra: dropField(acl, 'drop-add') }, csrf, query)}
${
  own
    ? html`<section class="panel" aria-labelledby="own-h"><h2 id="own-h">Access set here</h2>
${leftovers(acl)}
${table(
  'Access set here',
  own,
  owner,
  container,
  deps.people,
  (
    e,
    i,
  ) => html`<form method="post" action="${ADMIN_PATHS.shareRemove}">${csrfField(csrf)}<input type="hidden" name="path" value="${acl.path}"><input type="hidden" name="version" value="${version}"><input type="hidden" name="entry" value="${i}">
${dropField(acl, `drop-remove-${i}`)}${!acl.isRoot && losesControl(own, i, owner) ? html`<label class="check" for="give-up-${i}"><input type="checkbox" id="give-up-${i}" name="giveUpControl" value="yes" required> Give up deciding who has access here</label>` : ''}<button type="submit" class="small secondary" aria-label="Remove access of ${nameOfEntry(e)}">Remove</button></form>`,
)}
${!acl.isRoot ? html`<p><a class="button secondary" href="${inheritPage(acl.path)}">Use inherited access instead</a></p>` : ''}</section>`
    : ''
}
${sendIt(deps.cfg.baseUrl, acl.path, own ?? inheritedAsOwn(acl.inherited?.rows ?? [], container), owner)}
${linkSection(acl.path, links, expiry, deps.now(), csrf)}
${
  acl.inherited
    ? html`<section class="panel" aria-labelledby="inherited-h"><h2 id="inherited-h">Inherited from ${acl.inherited.from.slice(deps.cfg.baseUrl.length)}</h2>
<p class="muted">${own ? 'This item has its own settings, so this inherited access does not apply to it.' : 'This item has no settings of its own: this access applies.'}</p>
${table('Inherited access', inheritedAsOwn(acl.inherited.rows, container), owner, container, deps.people)}</section>`
    : ''
}
${explained}`,
  })
}

/** "Send it": the link for each recipient, with what they will see there. */
function sendIt(baseUrl: string, path: string, entries: Entry[], owner: string): SafeHtml | string {
  const links = shareLinks(baseUrl, path, entries, owner)
  if (links.length === 0) return ''
  return html`<section class="panel" aria-labelledby="send-h"><h2 id="send-h">Send it</h2>
<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">To</th><th scope="col">Link to send</th><th scope="col">What they will see</th></tr></thead>
<tbody>${links.map(
    (l, i) => html`<tr><td data-label="To"><code>${breakableUrl(l.who)}</code></td>
<td data-label="Link"><input type="text" readonly id="share-link-${i}" value="${l.link}" aria-label="Link for ${l.who}" data-enhance="copy-link"></td><td data-label="What they will see">${l.sees}</td></tr>`,
  )}</tbody></table></div></section>`
}

const bad = (code: CodeWithStatus<400>, description: string) => new HttpError(400, code, description)

/** Rewriting or deleting the ACL document drops what the page cannot show: only with the "drop" tick. */
function requireDropTick(acl: AclView, form: Record<string, unknown>, doing: string): void {
  if (acl.notEditable.count > 0 && form.drop !== 'yes') {
    throw bad(
      'confirmation_required',
      `the ACL document holds ${countOf(acl.notEditable.count, 'statement')} this page cannot show; tick "${dropLabel(acl.notEditable.count)}" to ${doing} anyway, or edit the ACL document as Turtle`,
    )
  }
}

/** Writes `entries` as the ACL document, if it is still the version the page showed. */
async function writeAcl(deps: AdminDeps, acl: AclView, form: Record<string, unknown>, entries: Entry[]): Promise<void> {
  requireDropTick(acl, form, 'save')
  if (entries.length === 0)
    throw new HttpError(409, 'no_access_left', 'nobody would have access, not even you: add someone first, or use the inherited access instead')
  await deps.resources.put(ownerActing(deps.cfg.baseUrl), aclPathOf(acl), 'text/turtle', aclTurtle(acl.url, entries), precondition(form)).catch(changed)
}

/** RFC 9110 §13.1: If-Match the version shown; none shown means the ACL must still not exist. */
const precondition = (form: Record<string, unknown>): Preconditions =>
  typeof form.version === 'string' && form.version !== '' ? { ifMatch: form.version, ifNoneMatch: null } : { ifMatch: null, ifNoneMatch: '*' }

const changed = (err: unknown) => {
  if (err instanceof HttpError && err.status === 412)
    throw new HttpError(
      412,
      'changed_meanwhile',
      'the access settings were changed since this page was shown (in another tab or by an app); open the page again to see them, then make your change',
    )
  throw err
}

export async function addShareEntry(deps: AdminDeps, request: Request, form: Record<string, unknown>): Promise<Response> {
  const acl = await readAclView(deps, { path: form.path })
  const container = acl.path.endsWith('/')
  const entry = entryFrom(form, container)
  // A person's WebID must name a profile that describes it; one without #fragment is asked about first
  if (entry.kind === 'agent' && entry.value !== ownerWebIdOf(deps.cfg.baseUrl)) {
    const check = await checkWebId(deps, entry.value)
    if (!check.ok && form.confirmWebId !== check.webid) {
      return renderOwnerPage(deps, request.headers.get('cookie'), {
        heading: 'Check the WebID',
        section: ADMIN_PATHS.share,
        body: csrf => webIdQuestion(check, form, csrf, sharePage(acl.path) + typedQuery(form)),
      })
    }
  }
  const entries = acl.own ? entriesOf(acl.own) : inheritedAsOwn(acl.inherited?.rows ?? [], container)
  await writeAcl(deps, acl, form, [...entries, entry])
  return seeOther(sharePage(acl.path, 'added'))
}

export async function removeShareEntry(deps: AdminDeps, form: Record<string, unknown>): Promise<Response> {
  const acl = await readAclView(deps, { path: form.path })
  const entries = acl.own ? entriesOf(acl.own) : []
  const i = typeof form.entry === 'string' && /^\d+$/.test(form.entry) ? Number(form.entry) : -1
  if (i < 0 || i >= entries.length) throw bad('invalid_field', `entry: expected the number of a row of "Access set here" (0 to ${entries.length - 1})`)
  // Asked on the page before the entry goes; at the root the operations layer refuses outright (owner_lockout)
  if (!acl.isRoot && losesControl(entries, i, ownerWebIdOf(deps.cfg.baseUrl)) && form.giveUpControl !== 'yes') {
    throw new HttpError(
      409,
      'confirmation_required',
      'without this entry you (the owner) would no longer decide who has access here; tick "Give up deciding who has access here" to remove it anyway',
    )
  }
  await writeAcl(
    deps,
    acl,
    form,
    entries.filter((_, j) => j !== i),
  )
  return seeOther(sharePage(acl.path, 'removed'))
}

const rootStays = () => new HttpError(409, 'owner_lockout', 'the root of the pod inherits from nothing: its ACL document must stay')

/**
 * "Use inherited access for X?": the page "Use inherited access instead" leads to, as a delete asks on a
 * page of its own (files-page.ts); it shows the access X will then have, and nothing changes before its
 * button is pressed.
 */
export async function showInheritPage(deps: AdminDeps, request: Request, query: Record<string, unknown>): Promise<Response> {
  const acl = await readAclView(deps, { path: query.path ?? '/' })
  if (acl.isRoot) throw rootStays()
  const version = await aclVersion(deps, acl)
  const container = acl.path.endsWith('/')
  const owner = ownerWebIdOf(deps.cfg.baseUrl)
  const from = acl.inherited ? acl.inherited.from.slice(deps.cfg.baseUrl.length) : 'its folder'
  return renderOwnerPage(deps, request.headers.get('cookie'), {
    heading: `Use inherited access for ${readablePath(acl.path)}?`,
    section: ADMIN_PATHS.share,
    body: csrf =>
      !acl.own
        ? html`<p>${readablePath(acl.path)} has no access settings of its own: it already has the access inherited from ${from}.</p><p><a href="${sharePage(acl.path)}">Back to sharing</a></p>`
        : html`<p>This deletes the access set here for <strong>${readablePath(acl.path)}</strong> (its ACL document). It then has the access inherited from ${from}:</p>
${table('Inherited access', acl.inherited ? inheritedAsOwn(acl.inherited.rows, container) : [], owner, container, deps.people)}
${leftovers(acl)}
<form method="post" action="${ADMIN_PATHS.shareInherit}">${csrfField(csrf)}<input type="hidden" name="path" value="${acl.path}"><input type="hidden" name="version" value="${version}">
${dropField(acl, 'drop-inherit')}
<p><button type="submit">Use inherited access</button> <a class="button secondary" href="${sharePage(acl.path)}">Cancel</a></p></form>`,
  })
}

/** "Use inherited access": the resource's own ACL document goes; the folder's defaults apply (WAC §6.2). */
export async function useInheritedAccess(deps: AdminDeps, form: Record<string, unknown>): Promise<Response> {
  const acl = await readAclView(deps, { path: form.path })
  if (acl.isRoot) throw rootStays()
  if (!acl.own) return seeOther(sharePage(acl.path, 'inherited'))
  requireDropTick(acl, form, 'remove it')
  await deps.resources.delete(ownerActing(deps.cfg.baseUrl), aclPathOf(acl), precondition(form)).catch(changed)
  return seeOther(sharePage(acl.path, 'inherited'))
}
