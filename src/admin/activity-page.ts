// The Activity page: the pod's recent changes, newest first — who (a WebID, the public, the pod itself), with which
// app, what (written over, deleted, moved to where, put in the trash) and when — each with the state it replaced
// ("See before") and a one-step undo. Filtered by app, by folder, to deletions; a page of 50 at a time.

import { agentLabel } from './person-label.ts'
import type { PersonCards } from '../account/person-cards.ts'
import type { Deps } from '../deps.ts'
import { ownerWebIdOf } from '../config.ts'
import { html, type SafeHtml } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readablePath } from '../lib/readable-path.ts'
import type { ChangeEntry, ChangeKind, ChangeQuery, VersionEnd } from '../resources/version-activity.ts'
import { podPath } from './browse.ts'
import { ownerActing } from './owner-acting.ts'
import { csrfField, renderOwnerPage } from './owner-page.ts'
import { readCredentials } from './credentials.ts'
import { linkUploadsOf, type LinkUpload } from '../account/link-uploads.ts'
import { SEPARATOR } from '../lib/separator.ts'
import { governedBy, isAcl } from '../store/acl-names.ts'

type PageDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'now' | 'appScopes' | 'revocations' | 'people'>

/** The owner's scripts and bots by client id: a change they made is named as the owner named them ("Notes app"). */
export const appNames = async (deps: PageDeps): Promise<ReadonlyMap<string, string>> => new Map((await readCredentials(deps)).map(c => [c.clientId, c.name]))

const PAGE_SIZE = 50
const DELETIONS: readonly VersionEnd[] = ['delete', 'trash']
export const VERBS: Record<ChangeKind, string> = { update: 'changed', delete: 'deleted', move: 'moved away', trash: 'put in the trash', create: 'created' }

/** What an access rule's change did, said of the item it governs ("changed who can access /Photos/"), not of its `.acl`. */
const ACCESS_WORDS: Partial<Record<ChangeKind, string>> = {
  create: 'set who can access',
  update: 'changed who can access',
  delete: 'went back to inherited access for',
}

/** The verb and the path a person reads for a change: an ACL's is about the item it governs, not a name they never see. */
export function changeWords(end: ChangeKind, path: string): { verb: string; shown: string } {
  if (!isAcl(path)) return { verb: VERBS[end], shown: readablePath(path) }
  return { verb: ACCESS_WORDS[end] ?? `${VERBS[end]} the access settings of`, shown: readablePath(governedBy(path)) }
}

const q = (params: Record<string, string | undefined>) => {
  const s = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')).toString()
  return s ? `?${s}` : ''
}
export const historyPage = (path: string) => ADMIN_PATHS.history + q({ path })
export const versionPage = (path: string, from: number) => ADMIN_PATHS.historyVersion + q({ path, version: String(from) })

/** Who made a change, as the owner reads it. */
export function whoOf(change: ChangeEntry, baseUrl: string): string {
  if (!change.by) return 'The pod itself'
  if (change.by.agent === ownerWebIdOf(baseUrl)) return 'You'
  return change.by.agent ?? 'Someone not signed in'
}

/** The same inside a sentence ("Replaced just now by you"): the pod's own words lose their capital, a WebID stays as it is. */
export function whoInSentence(change: ChangeEntry, baseUrl: string): string {
  const who = whoOf(change, baseUrl)
  return who === change.by?.agent ? who : who.charAt(0).toLowerCase() + who.slice(1)
}

/** The app and the way in: an app's client id, the dashboard, the visitor's pages, or the credential's scheme. */
export function appOf(change: ChangeEntry, names: ReadonlyMap<string, string>): string | undefined {
  const by = change.by
  // The public names no app: "Someone not signed in" is all that is known
  if (!by || by.via === 'anonymous') return undefined
  if (by.client) return names.get(by.client) ?? by.client
  return by.via === 'session' ? 'the dashboard' : by.via === 'visitor' ? "the visitor's pages" : by.via === 'link' ? 'a share link' : `an app (${by.via})`
}

/** "3 min ago": how long since, in the largest whole unit. */
export function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000))
  if (s < 60) return 'just now'
  const [n, unit] = s < 3600 ? [Math.floor(s / 60), 'min'] : s < 86_400 ? [Math.floor(s / 3600), 'hour'] : [Math.floor(s / 86_400), 'day']
  return `${n} ${unit}${unit !== 'min' && n !== 1 ? 's' : ''} ago`
}

/** The undo of one change: its replaced state written back (a plain POST form). */
export const undoForm = (csrf: string, change: ChangeEntry, back: 'activity' | 'history') => {
  const label = change.end === 'update' ? 'Undo' : 'Put it back'
  return html`<form method="post" action="${ADMIN_PATHS.historyRestore}">${csrfField(csrf)}<input type="hidden" name="path" value="${change.path}"><input type="hidden" name="version" value="${String(change.from)}"><input type="hidden" name="back" value="${back}"><button type="submit" class="small secondary" aria-label="${label}: ${readablePath(change.path)} as before ${new Date(change.until).toISOString()}">${label}</button></form>`
}

/** One change as a table row: when, who and with what, what was done to which path, and its actions. */
export interface RowContext {
  readonly csrf: string
  readonly now: number
  readonly baseUrl: string
  readonly names: ReadonlyMap<string, string>
  readonly filters?: Record<string, string | undefined>
  /** People by their profiles' names (the page asked `people.learn` for the row's agents first). */
  readonly people?: PersonCards
  /** The share-link uploads that created the rows' paths (`linkUploadsFor`): such a row names its link. */
  readonly uploads?: ReadonlyMap<string, readonly LinkUpload[]>
}

/**
 * The share-link uploads behind the creations among `changes`: a file a stranger dropped is one row, "added … through
 * the link 'for the plumber'", since the creation itself only knows it came through some link.
 */
export const linkUploadsFor = (deps: Pick<Deps, 'store' | 'now'>, changes: readonly ChangeEntry[]) =>
  linkUploadsOf(deps.store, deps.now(), new Set(changes.filter(c => c.end === 'create' && c.by?.via === 'link').map(c => c.path)))

/** The upload that made this creation: the first recorded at or after it was written (the record follows the write). */
const uploadOf = (change: ChangeEntry, uploads: RowContext['uploads']) =>
  change.end === 'create' && change.by?.via === 'link'
    ? uploads
        ?.get(change.path)
        ?.filter(u => u.at >= change.from)
        .at(-1)
    : undefined

/** Who made a change, by their profile's name where it is known. */
function whoLabel(change: ChangeEntry, baseUrl: string, people: PersonCards | undefined): SafeHtml | string {
  const agent = change.by?.agent
  return (people && agent !== undefined ? agentLabel(people, agent, ownerWebIdOf(baseUrl)) : undefined) ?? whoOf(change, baseUrl)
}

/** The agents of `changes` whose names a page may show (asked for in the background). */
export const agentsOf = (changes: readonly ChangeEntry[]): string[] => changes.flatMap(c => (c.by?.agent !== undefined ? [c.by.agent] : []))

export function changeRow({ csrf, now, baseUrl, names, filters = {}, people, uploads }: RowContext, change: ChangeEntry): SafeHtml {
  const app = appOf(change, names)
  const client = change.by?.client
  const upload = uploadOf(change, uploads)
  const words = changeWords(change.end, change.path)
  return html`<tr><td data-label="When">${ago(change.until, now)}<br><span class="muted">${localTime(change.until)}</span></td>
<td data-label="Who">${whoLabel(change, baseUrl, people)}${app ? html`<br><span class="muted">with ${client ? html`<a href="${ADMIN_PATHS.activity}${q({ ...filters, app: client })}">${app}</a>` : app}</span>` : ''}</td>
<td data-label="What">${change.to !== undefined ? html`moved <a href="${historyPage(change.path)}">${readablePath(change.path)}</a>` : upload ? html`added <a href="${historyPage(change.path)}">${readablePath(change.path)}</a>` : html`${words.verb} <a href="${historyPage(change.path)}">${words.shown}</a>`}${change.to !== undefined ? html` to <a href="${historyPage(change.to)}">${readablePath(change.to)}</a>` : ''}${
    upload ? html` through the link ${upload.link.name ? html`'${upload.link.name}'` : html`<code>${upload.link.id}</code>`}` : ''
  }</td>
<td class="row-actions">${
    // A creation replaced nothing: its row shows the state it made, and has nothing to undo to.
    change.end === 'create'
      ? html`<a class="small" href="${versionPage(change.path, change.from)}">See it</a>`
      : html`<a class="small" href="${versionPage(change.path, change.from)}">See before</a> ${undoForm(csrf, change, 'activity')}`
  }</td></tr>`
}

export const changesTable = (
  caption: string,
  rows: SafeHtml[] | SafeHtml,
  empty: string,
) => html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">${caption}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${Array.isArray(rows) && rows.length === 0 ? html`<tr><td colspan="4" class="muted">${empty}</td></tr>` : rows}</tbody></table></div>`

const DONE: Record<string, string> = { restore: 'Put back as it was before that change' }

export async function showActivityPage(deps: PageDeps, cookieHeader: string | null, query: Record<string, string | undefined>): Promise<Response> {
  const app = query.app || undefined
  const folder = query.folder ? podPath(query.folder.endsWith('/') ? query.folder : `${query.folder}/`) : undefined
  const deleted = query.what === 'deleted'
  const spec: ChangeQuery = {
    limit: PAGE_SIZE,
    ...(app ? { client: app } : {}),
    ...(folder && folder !== '/' ? { folder } : {}),
    ...(deleted ? { ends: DELETIONS } : {}),
    ...(query.after ? { after: query.after } : {}),
  }
  const { changes, next } = await deps.resources.changes(ownerActing(deps.cfg.baseUrl), spec)
  const now = deps.now()
  const names = await appNames(deps)
  const filters = { app, folder, what: deleted ? 'deleted' : undefined }
  const tab = (label: string, what: string | undefined) =>
    (what === 'deleted') === deleted
      ? html`<strong aria-current="page">${label}</strong>`
      : html`<a href="${ADMIN_PATHS.activity}${q({ ...filters, what })}">${label}</a>`
  const done = query.done && DONE[query.done]
  deps.people.learn(agentsOf(changes))
  const uploads = await linkUploadsFor(deps, changes)
  return renderOwnerPage(deps, cookieHeader, {
    heading: deleted ? 'Recently deleted' : 'Activity',
    section: ADMIN_PATHS.activity,
    ...(done ? { notice: done } : {}),
    body: csrf => html`<p class="muted">Every change to your pod, by you or by an app, keeps what it replaced for ${String(deps.cfg.keepVersionsDays)} days: see it, or put it back. What an app deletes is here too.</p>
<p class="actions">${tab('All changes', undefined)}${SEPARATOR}${tab('Recently deleted', 'deleted')}</p>
<form method="get" action="${ADMIN_PATHS.activity}" class="row-form">
${deleted ? html`<input type="hidden" name="what" value="deleted">` : ''}
<div><label for="filter-folder">In the folder</label><input type="text" id="filter-folder" name="folder" value="${folder ?? ''}" placeholder="/contacts/"></div>
<div><label for="filter-app">By the app (its client id)</label><input type="text" id="filter-app" name="app" value="${app ?? ''}" placeholder="https://app.example/id"></div>
<p class="actions"><button type="submit" class="small">Filter</button>${app || folder ? html` <a href="${ADMIN_PATHS.activity}${q({ what: filters.what })}">Show all</a>` : ''}</p>
</form>
${changesTable(
  'Recent changes',
  changes.map(c => changeRow({ csrf, now, baseUrl: deps.cfg.baseUrl, names, filters, people: deps.people, uploads }, c)),
  deleted ? 'Nothing was deleted recently' : 'No changes are kept',
)}
${next ? html`<p><a class="button secondary" href="${ADMIN_PATHS.activity}${q({ ...filters, after: next })}">Older changes</a></p>` : ''}`,
  })
}
