// Share links (issue 38): `/.links/TOKEN/` opens the file or folder a link names for anyone holding it, with no
// account. The token is resolved to its link (account/share-links.ts), then everything is read or added through
// the operations layer (`deps.resources`) as the link's own principal, which the one decider allows exactly
// what the link does (policy/link-access.ts): so nothing beside or above the link's path opens, however the
// path inside is spelled. A browser gets a page; other clients get the bytes. No log line names the token.

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { contentDisposition as disposition } from '../http/content-disposition.ts'
import { HttpError, toPlainResponse } from '../http/errors.ts'
import { LINK_PATHS, loggedPath } from '../http/pod-paths.ts'
import { isHeadAsGet } from '../http/head-as-get.ts'
import { logRefusal, renderError } from '../http/render-error.ts'
import { errorPage } from '../http/html-page.ts'
import { namesType } from '../http/content-negotiation.ts'
import { uploadFormParts } from '../http/upload-form.ts'
import { resolveTarget, encodeSegment } from '../store/target.ts'
import { isContainerPath } from '../store/paths.ts'
import { openShareLink, canRead, countShareLinkDownload, requireShareLinkLive, DAY_MS, type ShareLink } from '../account/share-links.ts'
import { recordLinkUpload } from '../account/link-uploads.ts'
import { makeLinkPasswords, PASSWORD_FIELD, type PasswordAttempt } from './link-password.ts'
import type { Acting } from '../resources/resources.ts'
import { NO_PRECONDITIONS } from '../resources/preconditions.ts'
import { zipName } from '../resources/folder-zip.ts'
import { previewKind } from '../lib/preview-kind.ts'
import { readableName } from '../lib/readable-path.ts'
import { log } from '../log.ts'
import { filePage, folderPage, passwordPage, uploadedPage } from './link-pages.ts'

/** What the layer's representation says of the bytes that a download, a media element's seek or a cache needs. */
const PASSED_ON = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'] as const
/** What a client may ask of the bytes: a range (a film seeking), and revalidation. */
const ASKED = ['range', 'if-range', 'if-none-match', 'if-modified-since'] as const
const PAGE_SIZE = 500
const MAX_PASSWORD_FORM = 8192

/** A browser navigating names text/html; a script or `curl` does not, and gets the bytes. */
const prefersHtml = (accept: string | null) => namesType(accept, 'text/html')

/** Every answer under /.links/: no Referer carries the token away, nothing of it runs as a page of the pod's origin, no shared cache keeps it. */
function guarded(res: Response, sandbox = 'sandbox'): Response {
  const headers = new Headers(res.headers)
  headers.set('referrer-policy', 'no-referrer')
  const csp = headers.get('content-security-policy')
  headers.set('content-security-policy', csp ? `${csp}; ${sandbox}` : sandbox)
  headers.set('x-content-type-options', 'nosniff')
  headers.set('cache-control', 'private, no-store')
  return new Response(res.body, { status: res.status, headers })
}

const notFound = (path: string) => new HttpError(404, 'not_found', `${path} does not exist`)

/**
 * What a person holding the link may do next: the link's own refusals (gone, expired, used up) say already to ask
 * whoever sent it for a new one; anything else (a file too large for a drop, a name not in the folder) is not
 * mended by a new link.
 */
const linkProblemHint = (e: HttpError): { hint?: string } =>
  e.code.startsWith('link_') ? {} : { hint: 'Go back to the previous page and try again, or ask whoever sent you the link.' }

interface Opened {
  readonly link: ShareLink
  /** The stored path asked for: the link's own, or one inside its folder. */
  readonly path: string
  /** The path as the link's URLs say it: `/.links/TOKEN/` + what is inside. */
  readonly base: string
  readonly token: string
  readonly who: Acting
}

/**
 * The token and the path inside the link, from the request's path as the URL parser left it (dot segments, `%2e%2e`
 * too, already resolved: a `..` that climbs out of the token's segment names another token, which opens nothing).
 * The inside path is resolved as any request target is (encoded slashes, NUL, dot segments refused) and must stay
 * under a folder link; a file link has nothing inside it.
 */
async function open(deps: Pick<Deps, 'store' | 'now'>, urlPath: string): Promise<Opened> {
  const rest = urlPath.slice(LINK_PATHS.base.length)
  const slash = rest.indexOf('/')
  const token = slash < 0 ? rest : rest.slice(0, slash)
  const inside = slash < 0 ? '' : rest.slice(slash + 1)
  const link = await openShareLink(deps.store, token, deps.now())
  let path = link.path
  if (inside !== '') {
    if (!isContainerPath(link.path)) throw notFound(inside)
    try {
      path = resolveTarget('', link.path + inside).path
    } catch {
      throw notFound(inside)
    }
    if (!path.startsWith(link.path)) throw notFound(inside)
  }
  return {
    link,
    path,
    base: `${LINK_PATHS.base}${token}/`,
    token,
    who: { principal: { keys: [], scheme: 'link', link: { id: link.id, path: link.path, allows: link.allows } } },
  }
}

export function linksPlugin(deps: Deps) {
  const { resources, cfg } = deps
  const passwords = makeLinkPasswords(deps.now)
  const https = cfg.baseUrl.startsWith('https://')
  /** As long as versions are kept (30 days when they are not). */
  const uploadsKeptMs = (cfg.keepVersionsDays > 0 ? cfg.keepVersionsDays : 30) * DAY_MS
  /** A page of a link with a password is its own origin's (no script runs in it), so its links and forms carry the SameSite=Strict cookie. */
  const pageSandbox = (o: Opened, sandbox: string) => (o.link.passwordHash !== undefined ? `${sandbox} allow-same-origin` : sandbox)

  async function read(request: Request, o: Opened, url: URL): Promise<Response> {
    if (!canRead(o.link.allows)) {
      // A file drop shows nothing of what is there: only the form that adds to it
      if (o.path !== o.link.path) throw notFound(o.path)
      const received = Number(new URL(request.url).searchParams.get('received') ?? 0)
      return prefersHtml(request.headers.get('accept'))
        ? guarded(await uploadedPage(o.link, o.base, Number.isSafeInteger(received) && received > 0 ? received : 0), pageSandbox(o, 'sandbox allow-forms'))
        : guarded(
            toPlainResponse(new HttpError(405, 'method_not_allowed', 'this link only takes files (POST); it shows nothing', { headers: { allow: 'POST' } })),
          )
    }
    if (url.searchParams.get('download') === 'zip' && isContainerPath(o.path)) return zip(request, o)
    const readable = await resources.read(o.who, o.path)
    const name = readableName(o.path) || readableName(o.link.path)
    const download = url.searchParams.has('download')
    const preview = url.searchParams.has('preview')
    if (!download && !preview && prefersHtml(request.headers.get('accept'))) {
      const relative = o.path.slice(isContainerPath(o.link.path) ? o.link.path.length : o.path.length)
      // Pages keep the sandbox of previews, opened only for what they are for: downloads, and the upload form
      if (!isContainerPath(o.path)) return guarded(await filePage(o.link, o.base + relative, name, readable.meta), pageSandbox(o, 'sandbox allow-downloads'))
      const listing = await resources.list(o.who, o.path, { cursor: { from: 'first' }, limit: PAGE_SIZE, countUpTo: PAGE_SIZE * 10 })
      return guarded(
        await folderPage(o.link, o.base, relative, listing),
        pageSandbox(o, canReadAndUpload(o) ? 'sandbox allow-downloads allow-forms' : 'sandbox allow-downloads'),
      )
    }
    const passed = new Headers()
    for (const h of ASKED) {
      const v = request.headers.get(h)
      if (v) passed.set(h, v)
    }
    const res = await resources.represent(o.path, readable, {
      accept: download || preview ? '*/*' : request.headers.get('accept'),
      requestUrl: cfg.baseUrl + o.path,
      requestHeaders: passed,
      head: false,
      headers: new Headers(),
    })
    const headers = new Headers()
    for (const h of PASSED_ON) {
      const v = res.headers.get(h)
      if (v !== null) headers.set(h, v)
    }
    if (!isContainerPath(o.path)) {
      // Shown inline only what a page may show (an image, a film); everything else is a download, never a page of this origin
      const inline = preview && previewKind(headers.get('content-type') ?? '') !== undefined
      headers.set('content-disposition', disposition(inline ? 'inline' : 'attachment', name))
      // A download counts when the whole file goes out: a 200 to a GET (a Range's 206, a 304, a HEAD and the pages do not)
      if (res.status === 200 && request.method === 'GET' && !isHeadAsGet(request) && o.link.maxDownloads !== undefined) {
        await countShareLinkDownload(deps.store, o.token, deps.now()).catch(async (err: unknown) => {
          await res.body?.cancel()
          throw err
        })
      }
    }
    return guarded(new Response(res.body, { status: res.status, headers }))
  }

  /**
   * The folder (the link's, or one inside it) as one zip of what the link may read, streamed: counted as one
   * download when it begins, and ended between two members once the link is removed or expires.
   */
  async function zip(request: Request, o: Opened): Promise<Response> {
    const stillAllowed = () =>
      requireShareLinkLive(deps.store, o.token, deps.now()).catch((err: unknown) => {
        // The status is sent: the log says why the download stopped short
        if (err instanceof HttpError) log.info('link.zip_ended', { link: o.link.id, error: err.code })
        throw err
      })
    const body = await resources.zip(o.who, o.path, { stillAllowed })
    if (request.method === 'GET' && !isHeadAsGet(request) && o.link.maxDownloads !== undefined) {
      await countShareLinkDownload(deps.store, o.token, deps.now()).catch(async (err: unknown) => {
        await body.cancel()
        throw err
      })
    }
    log.info('link.zipped', { link: o.link.id, path: o.path })
    const headers = { 'content-type': 'application/zip', 'content-disposition': disposition('attachment', zipName(o.path)) }
    if (isHeadAsGet(request)) await body.cancel()
    return guarded(new Response(isHeadAsGet(request) ? null : body, { status: 200, headers }))
  }

  const canReadAndUpload = (o: Opened) => o.link.allows === 'read-upload' && o.path === o.link.path

  /** A file drop: each file of a form, or one raw body named by its Slug, lands as a new file (POST: never replacing one). */
  async function upload(request: Request, o: Opened): Promise<Response> {
    if (o.path !== o.link.path || o.link.allows === 'read') throw notFound(o.path)
    const added: string[] = []
    const post = async (type: string | null, body: ReadableStream<Uint8Array> | Uint8Array, name: string) => {
      const member = await resources.post(o.who, o.path, type || 'application/octet-stream', body, {
        slug: encodeSegment(name),
        preconditions: NO_PRECONDITIONS,
      })
      added.push(member.path)
      log.info('link.uploaded', { link: o.link.id, path: member.path })
      // A new file replaces nothing, so no version says who added it: the Activity page reads this instead
      await recordLinkUpload(deps.store, { path: member.path, at: deps.now(), link: { id: o.link.id, name: o.link.name } }, uploadsKeptMs)
    }
    if (/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) {
      for await (const part of uploadFormParts(request)) {
        if (part.kind !== 'file') continue
        const name = part.filename.split(/[\\/]/).pop() ?? ''
        if (name === '' || name === '.' || name === '..') {
          await part.body.cancel()
          continue
        }
        await post(part.mimeType, part.body, name)
      }
      if (added.length === 0) throw new HttpError(400, 'invalid_request', 'the form carried no file')
    } else {
      const slug = request.headers.get('slug')
      if (!slug || !request.body)
        throw new HttpError(400, 'invalid_request', 'send a file as a multipart/form-data form, or as the body with its name in a Slug header')
      await post(request.headers.get('content-type'), request.body, decodeSlug(slug))
    }
    // Post/Redirect/Get: reloading the page that says "received" sends nothing again
    if (prefersHtml(request.headers.get('accept')))
      return guarded(new Response(null, { status: 303, headers: { location: `${o.base}?received=${added.length}` } }))
    const names = added.map(p => readableName(p))
    return guarded(Response.json({ added: names }, { status: 201 }))
  }

  const attemptOf = (request: Request, o: Opened): PasswordAttempt => ({ link: o.link, base: o.base, address: deps.clientAddresses.of(request), https })

  /** A link with a password, not yet unlocked: a browser gets the form (with why), other clients the refusal. */
  async function locked(request: Request, o: Opened, error: HttpError): Promise<Response> {
    logRefusal({ method: request.method, path: loggedPath(new URL(request.url).pathname) }, error)
    if (!prefersHtml(request.headers.get('accept'))) return guarded(toPlainResponse(error))
    return guarded(await passwordPage(o.link, o.base, error), pageSandbox(o, 'sandbox allow-forms'))
  }

  /**
   * The password form's POST (a urlencoded form without a Slug: never a file). The cookie it sets is SameSite=Strict
   * and the link face answers no other origin; a post that says it comes from another origin is refused.
   */
  async function submitPassword(request: Request, o: Opened): Promise<Response> {
    const origin = request.headers.get('origin')
    if (origin !== null && origin !== 'null' && origin !== new URL(cfg.baseUrl).origin)
      throw new HttpError(403, 'csrf_failed', "the password form is only taken from the link's own page")
    // A password form is a few hundred bytes; a bigger body is not one, and is not read into memory
    if (Number(request.headers.get('content-length') ?? 0) > MAX_PASSWORD_FORM)
      throw new HttpError(413, 'payload_too_large', `a password form is at most ${MAX_PASSWORD_FORM} bytes`)
    const text = await request.text()
    if (text.length > MAX_PASSWORD_FORM) throw new HttpError(413, 'payload_too_large', `a password form is at most ${MAX_PASSWORD_FORM} bytes`)
    const form = new URLSearchParams(text)
    const outcome = await passwords.submit(attemptOf(request, o), form.get(PASSWORD_FIELD) ?? '')
    if (outcome instanceof HttpError) return locked(request, o, outcome)
    log.info('link.unlocked', { link: o.link.id })
    return guarded(new Response(null, { status: 303, headers: { location: o.base, 'set-cookie': outcome.setCookie } }))
  }

  const isPasswordForm = (request: Request) =>
    request.method === 'POST' && /^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '') && !request.headers.has('slug')

  const handle = (request: Request, act: (o: Opened, url: URL) => Promise<Response>) => async () => {
    const url = new URL(request.url)
    try {
      const o = await open(deps, url.pathname)
      if (o.link.passwordHash !== undefined) {
        if (isPasswordForm(request)) return await submitPassword(request, o)
        const unlocked = await passwords.unlock(request, attemptOf(request, o))
        if (!unlocked.ok) return await locked(request, o, unlocked.error)
      }
      const res = await act(o, url)
      if (isUse(request, url, res)) deps.linkUses.count(o.token)
      return res
    } catch (err) {
      const html = prefersHtml(request.headers.get('accept'))
      return guarded(await renderError(request, err, e => (html ? errorPage(e, { ...linkProblemHint(e), links: [] }) : Promise.resolve(toPlainResponse(e)))))
    }
  }

  return new Elysia({ name: 'links' })
    .get(`${LINK_PATHS.base}*`, ({ request }) => handle(request, (o, url) => read(request, o, url))())
    .post(`${LINK_PATHS.base}*`, ({ request }) => handle(request, o => upload(request, o))(), { parse: 'none' })
}

/**
 * What counts as a use of a link: what was served — a page or a whole file (a GET answered 200) or files added (a
 * POST answered 201 or 303). Not a refusal, a password form, a HEAD, a Range's 206 or a 304 (the same download
 * resumed or revalidated), a preview shown inside a page already counted, nor the page an upload returns to.
 */
function isUse(request: Request, url: URL, res: Response): boolean {
  if (request.method === 'POST') return res.status === 201 || res.status === 303
  return request.method === 'GET' && !isHeadAsGet(request) && res.status === 200 && !url.searchParams.has('preview') && !url.searchParams.has('received')
}

/** A Slug as sent: percent-encoded (RFC 5023 §9.7) or plain. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug)
  } catch {
    return slug
  }
}
