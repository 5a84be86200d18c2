// One resource's history: each kept state with when it was written, when and by whom it was ended, its size, a
// view of it, its download and "Restore this version". A folder's: the changes under it, and the folder put back
// as it was before one of them (what was made since deleted, a versioned delete each).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html, type SafeHtml } from '../http/html-page.ts'
import { localTime, localTimeText } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { readablePath } from '../lib/readable-path.ts'
import { MAX_PREVIEW_TEXT_BYTES, bareType, isEditableText } from '../lib/preview-kind.ts'
import type { ChangeEntry } from '../resources/version-activity.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { podPath } from './browse.ts'
import { asDownload, filesPage } from './files-page.ts'
import { ownerActing } from './owner-acting.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { restoreFolderAt, restoreVersionFrom, timeOf } from './restore-version.ts'
import {
  agentsOf,
  ago,
  appNames,
  appOf,
  changeRow,
  changesTable,
  historyPage,
  linkUploadsFor,
  changeWords,
  versionPage,
  whoInSentence,
  whoOf,
} from './activity-page.ts'
import { viewPage } from './view-page.ts'
import { countOf } from '../lib/count-words.ts'
import { SEPARATOR } from '../lib/separator.ts'

type PageDeps = Pick<Deps, 'cfg' | 'store' | 'resources' | 'now' | 'appScopes' | 'revocations' | 'people'>
const ENDED: Record<ChangeEntry['end'], string> = { update: 'Replaced', delete: 'Deleted', move: 'Moved away', trash: 'Put in the trash', create: 'Created' }
const FOLDER_MOMENTS = 50
const dl = (path: string, from: number) => `${ADMIN_PATHS.historyDownload}?path=${encodeURIComponent(path)}&version=${from}`

/** A moment as the other pages say it (the server's time zone), to the second: several changes fall in one minute. */
const plainTime = (ms: number) => localTimeText(ms, true)

const restoreForm = (csrf: string, path: string, from: number) =>
  html`<form method="post" action="${ADMIN_PATHS.historyRestore}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}"><input type="hidden" name="version" value="${String(from)}"><input type="hidden" name="back" value="history"><button type="submit" class="small secondary" aria-label="Restore the version of ${plainTime(from)}">Restore this version</button></form>`

function doneNotice(query: Record<string, string | undefined>): string | undefined {
  if (query.done === 'restore') return 'Restored: the version you chose is the current one now (what it replaced is kept too)'
  if (query.done === 'folder') {
    const [restored, unchanged, removed] = [query.restored, query.unchanged, query.removed].map(n => Number(n) || 0) as [number, number, number]
    const put = `${countOf(restored, 'item')} put back as ${restored === 1 ? 'it was' : 'they were'}, ${unchanged} already ${unchanged === 1 ? 'was' : 'were'}`
    return `Folder restored: ${put}, ${countOf(removed, 'item')} made since deleted${removed > 0 ? ` (${removed === 1 ? 'it is' : 'they are'} in Recently deleted)` : ''}`
  }
  return undefined
}

export async function showHistoryPage(deps: PageDeps, cookieHeader: string | null, query: Record<string, string | undefined>): Promise<Response> {
  const path = podPath(query.path)
  return isContainerPath(path) ? folderHistory(deps, cookieHeader, path, query) : fileHistory(deps, cookieHeader, path, query)
}

async function fileHistory(deps: PageDeps, cookieHeader: string | null, path: string, query: Record<string, string | undefined>): Promise<Response> {
  const { current, versions } = await deps.resources.history(ownerActing(deps.cfg.baseUrl), path)
  const now = deps.now()
  const names = await appNames(deps)
  const notice = doneNotice(query)
  const row = (csrf: string, v: ChangeEntry) => html`<tr><td data-label="Written">${localTime(v.from, true)}</td>
<td data-label="Size">${formatBytes(v.meta.size)}</td>
<td data-label="Ended">${v.to !== undefined ? html`Moved to <a href="${historyPage(v.to)}">${readablePath(v.to)}</a>` : ENDED[v.end]} ${ago(v.until, now)} by ${whoInSentence(v, deps.cfg.baseUrl)}${appOf(v, names) ? html` <span class="muted">with ${appOf(v, names)}</span>` : ''}</td>
<td class="row-actions"><a class="small" href="${versionPage(path, v.from)}">View</a> <a class="small" href="${dl(path, v.from)}">Download</a> ${restoreForm(csrf, path, v.from)}</td></tr>`
  return renderOwnerPage(deps, cookieHeader, {
    heading: `History of ${readablePath(path)}`,
    section: ADMIN_PATHS.activity,
    ...(notice ? { notice } : {}),
    body: csrf => html`<p class="muted">Each earlier state is kept ${String(deps.cfg.keepVersionsDays)} days (one an hour after an hour, one a day after a day). Restoring one makes it current again; the state it replaces is kept as well.</p>
<p class="actions">${current ? html`<a class="button secondary" href="${viewPage(path)}">The current version</a>` : html`<span class="muted">It does not exist now.</span>`}
<a class="button secondary" href="${filesPage(parentPath(path) ?? '/')}">Back to the folder</a> <a class="button secondary" href="${ADMIN_PATHS.activity}">Activity</a></p>
<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Versions</caption>
<thead><tr><th scope="col">Written</th><th scope="col">Size</th><th scope="col">Ended</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${current ? html`<tr><td data-label="Written">${localTime(current.modified, true)}</td><td data-label="Size">${formatBytes(current.size)}</td><td data-label="Ended"><strong>Not yet</strong> (the current version)</td><td class="row-actions"><a class="small" href="${ADMIN_PATHS.download}?path=${encodeURIComponent(path)}">Download</a></td></tr>` : ''}
${versions.map(v => row(csrf, v))}</tbody></table></div>`,
  })
}

async function folderHistory(deps: PageDeps, cookieHeader: string | null, path: string, query: Record<string, string | undefined>): Promise<Response> {
  const { changes } = await deps.resources.changes(ownerActing(deps.cfg.baseUrl), { limit: FOLDER_MOMENTS, ...(path !== '/' ? { folder: path } : {}) })
  const now = deps.now()
  const names = await appNames(deps)
  const notice = doneNotice(query)
  // A moment is "just before one change": a batch's changes (a folder deleted) share one time, one moment
  deps.people.learn(agentsOf(changes))
  const uploads = await linkUploadsFor(deps, changes)
  const moments = changes.filter((c, i) => i === 0 || changes[i - 1]!.until !== c.until)
  const option = (c: ChangeEntry): SafeHtml => {
    const words =
      c.end === 'move' || c.end === 'trash' ? { verb: c.end === 'move' ? 'moved' : 'trashed', shown: readablePath(c.path) } : changeWords(c.end, c.path)
    return html`<option value="${String(c.until - 1)}">Before ${plainTime(c.until)}: ${whoOf(c, deps.cfg.baseUrl)} ${words.verb} ${words.shown}</option>`
  }
  return renderOwnerPage(deps, cookieHeader, {
    heading: `History of ${readablePath(path)}`,
    section: ADMIN_PATHS.activity,
    ...(notice ? { notice } : {}),
    body: csrf => html`<p class="actions"><a class="button secondary" href="${filesPage(path)}">Open the folder</a> <a class="button secondary" href="${ADMIN_PATHS.activity}?folder=${encodeURIComponent(path)}">All its changes</a></p>
${
  moments.length
    ? html`<h2>Restore the folder as it was</h2>
<form method="post" action="${ADMIN_PATHS.historyRestoreFolder}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">
<p><label for="restore-at">As it was</label> <select id="restore-at" name="at">${moments.map(option)}</select></p>
<p class="muted">Everything in the folder that existed then gets its content of then back, each as a new change you can undo. What was created in it after that time is deleted; it stays in Recently deleted, to put back.</p>
<p><button type="submit">Restore the folder</button></p></form>`
    : ''
}
<h2>Recent changes in it</h2>
${changesTable(
  'Changes in the folder',
  changes.map(c => changeRow({ csrf, now, baseUrl: deps.cfg.baseUrl, names, people: deps.people, uploads }, c)),
  'No changes are kept in this folder',
)}`,
  })
}

function versionOf(query: Record<string, string | undefined>): number {
  const from = Number(query.version)
  if (!query.version || !/^\d+$/.test(query.version) || !Number.isSafeInteger(from))
    throw new HttpError(400, 'invalid_request', 'which version (its epoch milliseconds, `version`) is missing')
  return from
}

/** One kept state: what it was (RDF and short text shown), its address for apps, its download and its restore. */
export async function showVersionPage(deps: PageDeps, cookieHeader: string | null, query: Record<string, string | undefined>): Promise<Response> {
  const path = podPath(query.path)
  const from = versionOf(query)
  const memento = await deps.resources.readMemento(ownerActing(deps.cfg.baseUrl), path, from)
  const type = bareType(memento.meta.contentType)
  const shown = memento.meta.kind === 'rdf' || (isEditableText(type) && memento.meta.size <= MAX_PREVIEW_TEXT_BYTES)
  const text = shown ? await (await representOf(deps, path, memento)).text() : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: `${readablePath(path)} as of ${plainTime(from)}`,
    section: ADMIN_PATHS.activity,
    body: csrf => html`<p class="muted">${memento.meta.kind === 'rdf' ? 'text/turtle' : type}${SEPARATOR}${formatBytes(memento.meta.size)}${SEPARATOR}written ${localTime(from, true)}${SEPARATOR}for apps: <code>${deps.cfg.baseUrl}${path}?version=${String(from)}</code></p>
${text !== undefined ? html`<pre class="preview-text">${text}</pre>` : html`<p class="muted">This kind of file is not shown here; download it to open it.</p>`}
<div class="actions"><a class="button" href="${dl(path, from)}">Download</a> ${restoreForm(csrf, path, from)} <a class="button secondary" href="${historyPage(path)}">History</a></div>`,
  })
}

const representOf = (deps: PageDeps, path: string, memento: Awaited<ReturnType<Deps['resources']['readMemento']>>) =>
  deps.resources.representMemento(path, memento, {
    accept: 'text/turtle;q=1, */*;q=0.5',
    requestUrl: `${deps.cfg.baseUrl}${path}?version=${memento.from}`,
    requestHeaders: new Headers(),
    head: false,
    headers: new Headers(),
  })

/** A kept state's bytes as a download (never shown in the page: it could be anything). */
export async function downloadVersion(deps: PageDeps, query: Record<string, string | undefined>): Promise<Response> {
  const path = podPath(query.path)
  const memento = await deps.resources.readMemento(ownerActing(deps.cfg.baseUrl), path, versionOf(query))
  return asDownload(await representOf(deps, path, memento), isContainerPath(path) ? `${path.slice(0, -1)}.ttl` : path)
}

/** "Restore this version" / "Undo" / "Put it back": one state written back, then the page it was pressed on. */
export async function submitRestoreVersion(deps: PageDeps, form: Record<string, string>): Promise<Response> {
  const path = podPath(form.path)
  await restoreVersionFrom(deps, path, versionOf(form))
  return seeOther(form.back === 'activity' ? `${ADMIN_PATHS.activity}?done=restore` : `${historyPage(path)}&done=restore`)
}

/** The folder as it was at `at`: every resource that existed then gets its state of then back. */
export async function submitRestoreFolder(deps: PageDeps, form: Record<string, string>): Promise<Response> {
  const path = podPath(form.path)
  const { restored, unchanged, removed } = await restoreFolderAt(deps, path, timeOf(form.at))
  return seeOther(`${historyPage(path)}&done=folder&restored=${restored.length}&unchanged=${unchanged.length}&removed=${removed.length}`)
}
