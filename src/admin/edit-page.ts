// Editing an RDF document without JavaScript: its Turtle in a text box and a Save button. Save checks
// the text with the resource server's parser first (check-rdf.ts) and then PUTs it through the
// resource server with If-Match on the ETag the page showed (RFC 9110 §13.1.1), so a change made
// meanwhile is refused rather than overwritten. Every refusal shows the page again with the text as
// it was sent: nothing typed is lost.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { breakableUrl, html, problemBox } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { podPath } from './browse.ts'
import { checkRdf } from './check-rdf.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { filesPage } from './files-page.ts'
import { sharePage } from './share-page.ts'
import type { CookieLdp } from '../http/cookie-ldp.ts'
import { readablePath } from '../lib/readable-path.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store'>

const TURTLE = 'text/turtle'

export const editPage = (path: string, done?: 'saved') => `${ADMIN_PATHS.edit}?path=${encodeURIComponent(path)}${done ? `&done=${done}` : ''}`

const documentPath = (raw: unknown) => {
  const path = podPath(raw)
  if (isContainerPath(path)) throw new HttpError(400, 'not_a_document', `${path} is a folder: its contents are listed in Files, not edited as text`)
  return path
}

interface Shown {
  readonly path: string
  readonly text: string
  readonly version: string
  readonly problem?: { readonly err: HttpError; readonly line?: number }
  readonly notice?: string
}

function render(deps: AdminDeps, cookieHeader: string | null, s: Shown): Promise<Response> {
  const url = deps.cfg.baseUrl + s.path
  const lineText = s.problem?.line ? s.text.split(/\r\n|\r|\n/)[s.problem.line - 1] ?? '' : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Edit ${readablePath(s.path.split('/').pop() ?? s.path)}`, section: ADMIN_PATHS.files,
    ...(s.notice ? { notice: s.notice } : {}), ...(s.problem ? { status: s.problem.err.status } : {}),
    body: (csrf) => html`<p class="muted"><code>${breakableUrl(url)}</code> · <a href="${sharePage(s.path)}">Who can access this</a> · <a href="${filesPage(parentPath(s.path) ?? '/')}">Back to the folder</a></p>
${s.problem ? problemBox(s.problem.err) : ''}${lineText !== undefined ? html`<p id="bad-line">Line ${s.problem!.line}: <code class="bad-line">${lineText}</code></p>` : ''}
<form method="post" action="${ADMIN_PATHS.edit}">${csrfField(csrf)}<input type="hidden" name="path" value="${s.path}"><input type="hidden" name="version" value="${s.version}">
<label for="rdf-text">Turtle</label><textarea id="rdf-text" name="text" spellcheck="false" wrap="off" rows="18"${s.problem ? html` aria-describedby="bad-line"` : ''}>${s.text}</textarea>
<p><button type="submit">Save</button> <a class="button secondary" href="${filesPage(parentPath(s.path) ?? '/')}">Cancel</a></p></form>`,
  })
}

export async function showEditPage(deps: AdminDeps, ldp: CookieLdp, request: Request, query: Record<string, unknown>): Promise<Response> {
  const path = documentPath(query.path)
  const res = await ldp(request, 'GET', path, { headers: { accept: TURTLE } })
  if (!(res.headers.get('content-type') ?? '').startsWith(TURTLE)) {
    await res.body?.cancel()
    throw new HttpError(400, 'not_rdf', `${path} is a file (${res.headers.get('content-type') ?? 'no type'}), not an RDF document: download it from Files instead`)
  }
  return render(deps, request.headers.get('cookie'), {
    path, text: await res.text(), version: res.headers.get('etag') ?? '', ...(query.done === 'saved' ? { notice: 'Saved' } : {}),
  })
}

export async function saveDocument(deps: AdminDeps, ldp: CookieLdp, request: Request, form: Record<string, unknown>): Promise<Response> {
  const path = documentPath(form.path)
  if (typeof form.text !== 'string') throw new HttpError(400, 'invalid_field', 'Turtle: the text of the document is missing')
  const version = typeof form.version === 'string' ? form.version : ''
  const again = (err: HttpError, line?: number) =>
    render(deps, request.headers.get('cookie'), { path, text: form.text as string, version, problem: { err, ...(line ? { line } : {}) } })
  // The same parser the PUT would run: the refusal names the line, and nothing is sent
  const checked = await checkRdf({ text: form.text, contentType: TURTLE, base: deps.cfg.baseUrl + path })
  if (!checked.ok) return again(new HttpError(400, checked.code, checked.message), checked.line)
  try {
    // No version: the document did not exist when the page was shown, so it must still not (RFC 9110 §13.1.2)
    await ldp(request, 'PUT', path, { headers: { 'content-type': TURTLE, ...(version ? { 'if-match': version } : { 'if-none-match': '*' }) }, body: form.text })
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    if (err.status === 412) return again(new HttpError(412, 'changed_meanwhile', 'the document was changed since this page was shown (in another tab or by an app), so it was not saved; your text is kept below: copy it, open the page again to see the current version, and merge'))
    return again(err)
  }
  return seeOther(editPage(path, 'saved'))
}
