// Editing a document without JavaScript: its text in a text box and a Save button — Turtle (checked with
// the resource server's parser first, check-rdf.ts), plain text and Markdown. Save PUTs through the
// operations layer as the owner with If-Match on the ETag the page showed (RFC 9110 §13.1.1), so a change made meanwhile
// is refused rather than overwritten. Every refusal shows the page again with the text as it was sent:
// nothing typed is lost. A conflict (412) offers both ways on: reload the newer version, or keep this one
// (the same form, now carrying the newer version's ETag: a third change in between is a conflict again).
// The script (static/admin/edit-checks.ts) adds the unsaved-work question and Turtle checked while typing.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { breakableUrl, html, problemBox } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { bareType, isEditableText } from '../lib/preview-kind.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { podPath } from './browse.ts'
import { checkRdf } from './check-rdf.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { filesPage } from './files-page.ts'
import { sharePage } from './share-page.ts'
import { ownerActing } from './owner-acting.ts'
import { readAsOwner } from './owner-read.ts'
import { readablePath } from '../lib/readable-path.ts'
import { SEPARATOR } from '../lib/separator.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'resources'>
type EditDeps = AdminDeps & Pick<Deps, 'resources'>

const TURTLE = 'text/turtle'
/** Turtle first: an RDF document is edited as Turtle whatever it was stored as; any other type as it is. */
const ACCEPT = `${TURTLE};q=1, */*;q=0.5`

/** What this page edits: Turtle, plain text and Markdown (lib/preview-kind.ts isEditableText). */
const editable = (type: string) => type === TURTLE || isEditableText(type)
const labelOf = (type: string) => (type === TURTLE ? 'Turtle' : type === 'text/markdown' ? 'Markdown' : 'Text')

/** Said first when a save meets a newer version; the two buttons beside it are the two answers. */
export const CONFLICT = 'Someone changed this document while you were editing: reload it, or keep your version.'

export const editPage = (path: string, done?: 'saved') => `${ADMIN_PATHS.edit}?path=${encodeURIComponent(path)}${done ? `&done=${done}` : ''}`

const documentPath = (raw: unknown) => {
  const path = podPath(raw)
  if (isContainerPath(path)) throw new HttpError(400, 'not_a_document', `${path} is a folder: its contents are listed in Files, not edited as text`)
  return path
}

interface Shown {
  readonly path: string
  readonly type: string
  readonly text: string
  readonly version: string
  readonly problem?: { readonly err: HttpError; readonly line?: number }
  /** A save refused because the document changed: its text now (undefined: it was deleted meanwhile). */
  readonly conflict?: { readonly theirs: string | undefined }
  readonly notice?: string
}

function render(deps: AdminDeps, cookieHeader: string | null, s: Shown): Promise<Response> {
  const url = deps.cfg.baseUrl + s.path
  const name = readablePath(s.path.split('/').pop() ?? s.path)
  const lineText = s.problem?.line ? (s.text.split(/\r\n|\r|\n/)[s.problem.line - 1] ?? '') : undefined
  const described = [s.problem ? 'edit-problem' : '', s.type === TURTLE ? 'rdf-check' : ''].filter(Boolean).join(' ')
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Edit ${name}`,
    section: ADMIN_PATHS.files,
    ...(s.notice ? { notice: s.notice } : {}),
    ...(s.problem ? { status: s.problem.err.status } : {}),
    body: csrf => html`<p class="muted"><code>${breakableUrl(url)}</code>${SEPARATOR}<a href="${ADMIN_PATHS.view}?path=${encodeURIComponent(s.path)}">View</a>${SEPARATOR}<a href="${sharePage(s.path)}">Who can access this</a>${SEPARATOR}<a href="${filesPage(parentPath(s.path) ?? '/')}">Back to the folder</a></p>
${s.problem ? html`<div id="edit-problem">${problemBox(s.problem.err, s.conflict ? CONFLICT : undefined)}</div>` : ''}${s.conflict ? conflictChoices(s) : ''}${lineText !== undefined ? html`<p id="bad-line">Line ${s.problem!.line}: <code class="bad-line">${lineText}</code></p>` : ''}
<form id="edit-form" method="post" action="${ADMIN_PATHS.edit}" data-enhance="unsaved${s.type === TURTLE ? ' check-turtle' : ''}" data-document="${url}">${csrfField(csrf)}<input type="hidden" name="path" value="${s.path}"><input type="hidden" name="type" value="${s.type}"><input type="hidden" name="version" value="${s.version}"><input type="hidden" name="newline" value="${/\r\n/.test(s.text) ? 'crlf' : 'lf'}">
<label for="edit-text">${labelOf(s.type)}</label><textarea id="edit-text" name="text" spellcheck="${s.type === TURTLE ? 'false' : 'true'}"${s.type === TURTLE ? html` wrap="off"` : ''} rows="18"${described ? html` aria-describedby="${described}"` : ''}>${s.text}</textarea>
${s.type === TURTLE ? html`<p id="rdf-check" class="field-error" hidden></p>` : ''}
<p>${s.conflict ? '' : html`<button type="submit">Save</button> `}<a class="button secondary" href="${filesPage(parentPath(s.path) ?? '/')}">Cancel</a></p></form>`,
  })
}

/** The conflict's two answers, beside its message; the newer text shown so the owner can compare. */
const conflictChoices = (
  s: Shown,
) => html`<p class="actions"><a class="button secondary small" href="${editPage(s.path)}">Reload (lose my changes)</a> <button type="submit" form="edit-form">Keep my version</button></p>
${
  s.conflict!.theirs === undefined
    ? html`<p class="muted">The document was deleted meanwhile: keeping your version creates it again.</p>`
    : html`<details><summary>The newer version, as saved now</summary><pre class="preview-text" id="their-text">${s.conflict!.theirs}</pre></details>`
}`

/** The document as an app would read it now: its text, type and ETag. */
async function current(deps: EditDeps, path: string) {
  const res = await readAsOwner(deps, path, ACCEPT)
  const type = bareType(res.headers.get('content-type') ?? '')
  if (!editable(type)) {
    await res.body?.cancel()
    throw new HttpError(
      400,
      'not_editable',
      `${path} is ${type || 'a file of no type'}: only Turtle, plain text and Markdown are edited here; download it from Files instead`,
    )
  }
  return { type, text: await res.text(), version: res.headers.get('etag') ?? '' }
}

export async function showEditPage(deps: EditDeps, request: Request, query: Record<string, unknown>): Promise<Response> {
  const path = documentPath(query.path)
  return render(deps, request.headers.get('cookie'), { path, ...(await current(deps, path)), ...(query.done === 'saved' ? { notice: 'Saved' } : {}) })
}

export async function saveDocument(deps: EditDeps, request: Request, form: Record<string, unknown>): Promise<Response> {
  const path = documentPath(form.path)
  if (typeof form.text !== 'string') throw new HttpError(400, 'invalid_field', 'the text of the document is missing')
  const type = typeof form.type === 'string' ? bareType(form.type) : TURTLE
  if (!editable(type)) throw new HttpError(400, 'invalid_field', `type: ${type} is not edited here (Turtle, plain text or Markdown)`)
  // A form sends a text box's lines ending in CRLF (HTML §4.10.21.8): the document keeps the endings it had
  const lf = form.text.replace(/\r\n?/g, '\n')
  const text = form.newline === 'crlf' ? lf.replace(/\n/g, '\r\n') : lf
  const version = typeof form.version === 'string' ? form.version : ''
  const again = (err: HttpError, line?: number) =>
    render(deps, request.headers.get('cookie'), { path, type, text, version, problem: { err, ...(line ? { line } : {}) } })
  if (type === TURTLE) {
    // The same parser the PUT would run: the refusal names the line, and nothing is sent
    const checked = await checkRdf({ text, contentType: TURTLE, base: deps.cfg.baseUrl + path })
    if (!checked.ok) return again(new HttpError(400, checked.code, checked.message), checked.line)
  }
  try {
    // No version: the document did not exist when the page was shown, so it must still not (RFC 9110 §13.1.2)
    await deps.resources.put(
      ownerActing(deps.cfg.baseUrl),
      path,
      type,
      text,
      version ? { ifMatch: version, ifNoneMatch: null } : { ifMatch: null, ifNoneMatch: '*' },
    )
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    if (err.status === 412) return conflict(deps, request, { path, type, text })
    return again(err)
  }
  return seeOther(editPage(path, 'saved'))
}

/** The page again, answered 412: the owner's text kept, the form now carrying the newer version's ETag. */
async function conflict(deps: EditDeps, request: Request, mine: { path: string; type: string; text: string }): Promise<Response> {
  const now = await readAsOwner(deps, mine.path, ACCEPT).catch((e: unknown) => {
    if (e instanceof HttpError && e.status === 404) return undefined
    throw e
  })
  const theirs = now ? await now.text() : undefined
  const err = new HttpError(
    412,
    'changed_meanwhile',
    'the document was changed since this page was shown (in another tab or by an app), so your text was not saved; it is kept below',
  )
  return render(deps, request.headers.get('cookie'), { ...mine, version: now?.headers.get('etag') ?? '', problem: { err }, conflict: { theirs } })
}
