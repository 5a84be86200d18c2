// The visitor's side of sharing (/.visitor/): sign in with your own Solid pod, see what is shared with
// you, preview and download it, add files where you may append, edit text where you may write.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { contentDisposition as disposition } from '../http/content-disposition.ts'
import { HttpError } from '../http/errors.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import type { RefusalCode, StatusOf } from '../http/refusals.ts'
import { jsonResponse } from '../http/json-response.ts'
import { errorPage, html, problemBox, renderErrorPage, type NextSteps } from '../http/html-page.ts'
import { fromFramework, logRefusal, renderError } from '../http/render-error.ts'
import { uploadFormParts } from '../http/upload-form.ts'
import { FailureLimiter } from '../http/rate-limit.ts'
import { VISIT_PATHS } from '../http/pod-paths.ts'
import { createVisitorSession, endVisitorSession, getVisitorSession, type VisitorSession } from '../account/visitor-sessions.ts'
import { sharedWith, type SharedItem } from '../policy/shared-with.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { parseRdf } from '../rdf/parse-rdf.ts'
import { parseWacAllow } from '../policy/modes.ts'
import { podPathOf, encodeSegment } from '../store/target.ts'
import { NO_PRECONDITIONS } from '../resources/preconditions.ts'
import { log } from '../log.ts'
import { clientIdDocument, makeRelyingParty } from './relying-party.ts'
import { MAX_PREVIEW_TEXT_BYTES, previewKind } from '../lib/preview-kind.ts'
import { documentBody, editBody, filesPage, folderBody, membersOf, nameOf, renderVisitorPage, sharedListBody, signInBody } from './visitor-pages.ts'
import { ANONYMOUS } from '../auth/principal.ts'
import { visitorPrincipal } from '../auth/visitor-cookie.ts'
import type { Acting } from '../resources/resources.ts'
import { addressBlock } from '../lib/ip-address.ts'

/** Sign-ins started per client address: each costs the pod fetches of a stranger's documents. */
const SIGN_IN_LIMIT = { max: 20, windowMs: 15 * 60 * 1000 }
/** Requests of one visitor session: a signed-in stranger still may not keep the pod busy. */
const VISITOR_LIMIT = { max: 600, windowMs: 60 * 1000 }
/**
 * "Shared with you" reads every ACL document of the pod: a visitor's list is kept this long, so reloading it
 * cannot keep the pod busy. Opening anything is decided afresh on every request, so a share taken back
 * refuses at once; only the list may show it a few seconds longer.
 */
const SHARED_LIST_MS = 10_000

const Form = t.Record(t.String(), t.String())
const PathQuery = t.Object({ path: t.Optional(t.String()), download: t.Optional(t.String()) })

const SIGN_IN_NEXT: NextSteps = { hint: 'Go back to the link you were sent and sign in again.', links: [{ href: VISIT_PATHS.signIn, label: 'Sign in' }] }

const signInPath = (returnTo: string) => `${VISIT_PATHS.signIn}?return=${encodeURIComponent(returnTo)}`

/** A pod path the visitor asked for (a query or a form field), canonical; no path at all is the root. */
const podPath = (raw: string | undefined) => podPathOf(raw === undefined || raw === '' ? '/' : raw)

/**
 * An operation of the layer, refused as these pages show it: the refusal's status, code and reason. The headers
 * it carries (WAC-Allow, Allow, Content-Range) describe the resource, and a page is not that resource.
 */
const onPage = <T>(op: Promise<T>): Promise<T> =>
  op.catch((err: unknown) => {
    throw err instanceof HttpError ? new HttpError(err.status as StatusOf<RefusalCode>, err.code, err.description, { cause: err.cause }) : err
  })

export function visitPlugin(deps: Deps) {
  const { cfg, store, resources } = deps
  const rp = makeRelyingParty(deps)
  const origin = new URL(cfg.baseUrl).origin
  const signIns = new FailureLimiter(SIGN_IN_LIMIT)
  const busy = new FailureLimiter(VISITOR_LIMIT)
  const sharedLists = new LruCache<string, Promise<SharedItem[]>>(1000)
  const sharedListOf = (session: VisitorSession) => {
    const now = deps.now()
    let list = sharedLists.get(session.webid, now)
    if (!list) {
      list = sharedWith({ store, baseUrl: cfg.baseUrl, decider: deps.decider, grants: deps.grants }, visitorPrincipal(session))
      sharedLists.set(session.webid, list, now + SHARED_LIST_MS)
      list.catch(() => sharedLists.delete(session.webid))
    }
    return list
  }
  const cookieOf = (request: Request) => request.headers.get('cookie')

  interface Reader {
    readonly session?: VisitorSession
    readonly csrf: string
    readonly setCookie?: string
  }

  /** Who reads: the visitor's session if any (paced), and the page's CSRF token. */
  async function reader(request: Request): Promise<Reader> {
    const session = await getVisitorSession(store, cfg.baseUrl, cookieOf(request), deps.now())
    if (session) {
      const wait = busy.begin(session.id, deps.now())
      if (wait > 0)
        throw new HttpError(429, 'too_many_requests', `too many requests from this sign-in; wait ${wait} s`, { headers: { 'retry-after': String(wait) } })
    }
    const { token, setCookie } = csrfTokenFor(cookieOf(request), cfg.baseUrl)
    return { ...(session ? { session } : {}), csrf: token, ...(setCookie ? { setCookie } : {}) }
  }

  /** A signed-in visitor, or the way to the sign-in page (coming back to `returnTo`). */
  async function visitor(request: Request, returnTo: string): Promise<(Reader & { session: VisitorSession }) | Response> {
    const r = await reader(request)
    if (!r.session) return new Response(null, { status: 303, headers: { location: signInPath(returnTo) } })
    return r as Reader & { session: VisitorSession }
  }

  /**
   * Who the pages act as in the operations layer: the visitor's session, or the public without one, from the pod's
   * own origin (WAC's acl:origin: these are the pod's own pages). Whatever else the browser holds (the owner's
   * own sign-in, in the same browser) never acts through these pages.
   */
  const actingOf = (r: Reader): Acting => ({ principal: r.session ? visitorPrincipal(r.session) : ANONYMOUS, origin })

  /**
   * `path` as the visitor may read it (Read decided first, then its existence), as HTTP, as the resource server
   * answers a GET: `accept` negotiated, and of the browser's headers only its Range.
   */
  const readAs = (r: Reader, path: string, accept: string, o: { head?: boolean; range?: string | null } = {}) =>
    onPage(
      (async () => {
        const readable = await resources.read(actingOf(r), path)
        const requestHeaders = new Headers(o.range ? { range: o.range } : {})
        const res = await resources.represent(path, readable, {
          accept,
          requestUrl: cfg.baseUrl + path,
          requestHeaders,
          head: o.head ?? false,
          headers: new Headers(),
        })
        return { res, wacAllow: readable.wacAllow }
      })(),
    )
  const withCookie = (setCookie: string | undefined) => (setCookie ? { 'set-cookie': setCookie } : undefined)

  /** The sign-in form, with the refusal of the last try above it (logged as every refusal is). */
  async function signInPage(request: Request, returnTo: string, problem?: HttpError, typed = ''): Promise<Response> {
    if (problem) logRefusal({ method: request.method, path: new URL(request.url).pathname }, problem)
    const { token, setCookie } = csrfTokenFor(cookieOf(request), cfg.baseUrl)
    const session = await getVisitorSession(store, cfg.baseUrl, cookieOf(request), deps.now())
    return renderVisitorPage({
      heading: 'Sign in to see what is shared with you',
      csrf: token,
      ...(session ? { session } : {}),
      ...(problem ? { status: problem.status } : {}),
      headers: { ...problem?.headers, ...withCookie(setCookie) },
      body: html`${problem ? problemBox(problem) : ''}${signInBody(returnTo, token, typed)}`,
    })
  }

  async function startSignIn(request: Request, form: Record<string, string>): Promise<Response> {
    checkCsrf({ cookieHeader: cookieOf(request), sent: form.csrf, origin: request.headers.get('origin'), baseUrl: cfg.baseUrl })
    const returnTo = podPath(form.return)
    const address = deps.clientAddresses.of(request)
    const wait = address ? signIns.begin(addressBlock(address), deps.now()) : 0
    if (wait > 0)
      return signInPage(
        request,
        returnTo,
        new HttpError(429, 'too_many_requests', `too many sign-ins from this address; wait ${wait} s`, { headers: { 'retry-after': String(wait) } }),
        form.who ?? '',
      )
    try {
      return new Response(null, { status: 303, headers: { location: await rp.start(form.who ?? '', returnTo), 'cache-control': 'no-store' } })
    } catch (err) {
      if (!(err instanceof HttpError)) throw err
      return signInPage(request, returnTo, err, (form.who ?? '').slice(0, 300))
    }
  }

  async function finishSignIn(request: Request, query: Record<string, string | undefined>): Promise<Response> {
    const who = await rp.finish(query)
    const { session, setCookie } = await createVisitorSession(store, cfg.baseUrl, who, request.headers.get('user-agent'), deps.now())
    log.info('visitor.signed_in', { webid: session.webid, issuer: session.issuer })
    return new Response(null, { status: 303, headers: { location: filesPage(who.returnTo), 'set-cookie': setCookie, 'cache-control': 'no-store' } })
  }

  /** A folder's listing, a file's page, or everything shared, as the one decider lets this visitor see it. */
  async function showFiles(request: Request, rawPath: string | undefined): Promise<Response> {
    const path = rawPath === undefined || rawPath === '' ? undefined : podPath(rawPath)
    // What is public opens without signing in; the rest asks for it (the refusal leads to the sign-in page)
    const v = path === undefined ? await visitor(request, '/') : await reader(request)
    if (v instanceof Response) return v
    const page = (heading: string, body: ReturnType<typeof html>) =>
      renderVisitorPage({ heading, ...(v.session ? { session: v.session } : {}), csrf: v.csrf, headers: withCookie(v.setCookie) ?? {}, body })
    if (path === undefined) {
      return page('Shared with you', sharedListBody(await sharedListOf(v.session!)))
    }
    const { res, wacAllow } = await readAs(v, path, path.endsWith('/') ? 'text/turtle' : '*/*')
    const modes = parseWacAllow(wacAllow)
    if (path.endsWith('/')) {
      const quads = await parseRdf(await res.text(), 'text/turtle', cfg.baseUrl + path)
      return page(path === '/' ? 'The pod' : nameOf(path), folderBody(path, membersOf(quads, cfg.baseUrl + path, cfg.baseUrl), modes, v.csrf))
    }
    const type = (res.headers.get('content-type') ?? 'application/octet-stream').split(';', 1)[0]!.trim().toLowerCase()
    const size = Number(res.headers.get('content-length') ?? NaN)
    const text = previewKind(type) === 'text' && !(size > MAX_PREVIEW_TEXT_BYTES) ? await res.text() : undefined
    if (text === undefined) await res.body?.cancel()
    return page(nameOf(path), documentBody(path, type, modes, text))
  }

  /** One file's bytes for a preview or a download: never run as a page of the pod's origin. */
  async function sendFile(request: Request, rawPath: string | undefined, download: boolean): Promise<Response> {
    const path = podPath(rawPath)
    const v = await reader(request)
    const { res } = await readAs(v, path, '*/*', { range: request.headers.get('range') })
    const headers = new Headers()
    for (const h of ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified']) {
      const value = res.headers.get(h)
      if (value !== null) headers.set(h, value)
    }
    const type = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
    const inline = !download && ['image', 'video', 'audio', 'pdf', 'text'].includes(previewKind(type) ?? '')
    headers.set('content-disposition', disposition(inline ? 'inline' : 'attachment', nameOf(path)))
    // Whatever the owner or another visitor stored, it runs no script here and is never sniffed into HTML
    headers.set('content-security-policy', 'sandbox')
    headers.set('x-content-type-options', 'nosniff')
    headers.set('cache-control', 'private, no-cache')
    if (v.setCookie) headers.append('set-cookie', v.setCookie)
    return new Response(res.body, { status: res.status, headers })
  }

  async function upload(request: Request): Promise<Response> {
    const v = await visitor(request, '/')
    if (v instanceof Response) return v
    let csrf: string | undefined
    let folder: string | undefined
    for await (const part of uploadFormParts(request)) {
      if (part.kind === 'field') {
        if (part.name === 'csrf') csrf = part.value
        if (part.name === 'path') folder = part.value
        continue
      }
      checkCsrf({ cookieHeader: cookieOf(request), sent: csrf, origin: request.headers.get('origin'), baseUrl: cfg.baseUrl })
      const dir = podPath(folder)
      if (!dir.endsWith('/')) throw new HttpError(400, 'invalid_path', 'files are added to a folder (a path ending in /)')
      const name = part.filename.split(/[\\/]/).pop() ?? ''
      if (name === '' || name === '.' || name === '..') throw new HttpError(400, 'invalid_request', 'choose a file to upload')
      // POST with the name as Slug (Solid Protocol §5.3): what Append allows, and a name taken gets another
      // name from the pod instead of replacing what is there
      await onPage(
        resources.post(actingOf(v), dir, part.mimeType || 'application/octet-stream', part.body, {
          slug: encodeSegment(name),
          preconditions: NO_PRECONDITIONS,
        }),
      )
      log.info('visitor.uploaded', { webid: v.session.webid })
      return new Response(null, { status: 303, headers: { location: filesPage(dir) } })
    }
    throw new HttpError(400, 'invalid_request', 'the form carried no file')
  }

  async function showEdit(request: Request, rawPath: string | undefined): Promise<Response> {
    const path = podPath(rawPath)
    const v = await visitor(request, path)
    if (v instanceof Response) return v
    const { res } = await readAs(v, path, '*/*')
    const type = (res.headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase()
    if (previewKind(type) !== 'text' || Number(res.headers.get('content-length') ?? 0) > MAX_PREVIEW_TEXT_BYTES) {
      await res.body?.cancel()
      throw new HttpError(415, 'unsupported_media_type', `only text documents of at most 1 MiB are edited here; ${nameOf(path)} is ${type}`)
    }
    return renderVisitorPage({
      heading: `Edit ${nameOf(path)}`,
      session: v.session,
      csrf: v.csrf,
      headers: withCookie(v.setCookie) ?? {},
      body: editBody(path, await res.text(), res.headers.get('etag') ?? '', v.csrf),
    })
  }

  async function saveEdit(request: Request, form: Record<string, string>): Promise<Response> {
    const path = podPath(form.path)
    const v = await visitor(request, path)
    if (v instanceof Response) return v
    checkCsrf({ cookieHeader: cookieOf(request), sent: form.csrf, origin: request.headers.get('origin'), baseUrl: cfg.baseUrl })
    // The text goes back in the type the edit page showed it in (RDF in the syntax negotiated, not as stored)
    const { res: head } = await readAs(v, path, '*/*', { head: true })
    const type = head.headers.get('content-type') ?? 'text/plain'
    // If-Match: a change made meanwhile (by the owner, another visitor) is refused, not overwritten
    await onPage(resources.put(actingOf(v), path, type, form.text ?? '', { ifMatch: form.etag || null, ifNoneMatch: null }))
    log.info('visitor.edited', { webid: v.session.webid })
    return new Response(null, { status: 303, headers: { location: filesPage(path) } })
  }

  async function signOut(request: Request, form: Record<string, string>): Promise<Response> {
    checkCsrf({ cookieHeader: cookieOf(request), sent: form.csrf, origin: request.headers.get('origin'), baseUrl: cfg.baseUrl })
    const setCookie = await endVisitorSession(store, cfg.baseUrl, cookieOf(request))
    return new Response(null, { status: 303, headers: { location: VISIT_PATHS.signIn, 'set-cookie': setCookie } })
  }

  /** Page routes: a refusal is a page (the operations layer's reason when it refused), with a way back. */
  const page = (path: string, request: Request, run: () => Promise<Response>, next: NextSteps = SIGN_IN_NEXT) =>
    run().catch((err: unknown) => {
      if (err instanceof HttpError) {
        // Not signed in and not public: sign in first, then come back to what was asked for
        if (err.code === 'unauthenticated' && request.method === 'GET') {
          const wanted = new URL(request.url).searchParams.get('path')
          return new Response(null, { status: 303, headers: { location: signInPath(wanted ?? '/') } })
        }
        // An access refusal reads as "not shared with you", whatever exists there
        if (err.code === 'forbidden' || err.code === 'unauthenticated') {
          return renderErrorPage(path, new HttpError(403, 'forbidden', 'this is not shared with you (or no longer is); ask whoever sent you the link'), {
            heading: 'Not shared with you',
            hint: 'Only what is shared with your WebID opens here.',
            links: [{ href: VISIT_PATHS.files, label: 'What is shared with you' }],
          })
        }
        return renderErrorPage(path, err, next)
      }
      throw err
    })

  return (
    new Elysia({ name: 'visit' })
      .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), e => errorPage(e, SIGN_IN_NEXT)))
      // Solid-OIDC §5.1: fetched by the visitor's provider, so public (and CORS-readable, http/pod-paths.ts)
      .get(VISIT_PATHS.clientId, () => jsonResponse(clientIdDocument(cfg.baseUrl), { headers: { 'content-type': 'application/ld+json' } }))
      .get(VISIT_PATHS.signIn, ({ request, query }) => page(VISIT_PATHS.signIn, request, () => signInPage(request, podPath(query.return))), {
        query: t.Object({ return: t.Optional(t.String()) }),
      })
      .post(VISIT_PATHS.signIn, ({ request, body }) => page(VISIT_PATHS.signIn, request, () => startSignIn(request, body)), { body: Form })
      .get(VISIT_PATHS.callback, ({ request, query }) => page(VISIT_PATHS.callback, request, () => finishSignIn(request, query)), {
        query: t.Record(t.String(), t.String()),
      })
      .post(VISIT_PATHS.signOut, ({ request, body }) => page(VISIT_PATHS.signOut, request, () => signOut(request, body)), { body: Form })
      .get(VISIT_PATHS.files, ({ request, query }) => page(VISIT_PATHS.files, request, () => showFiles(request, query.path)), { query: PathQuery })
      .get(VISIT_PATHS.file, ({ request, query }) => page(VISIT_PATHS.file, request, () => sendFile(request, query.path, query.download === '1')), {
        query: PathQuery,
      })
      .post(VISIT_PATHS.upload, ({ request }) => page(VISIT_PATHS.upload, request, () => upload(request)), { parse: 'none' })
      .get(VISIT_PATHS.edit, ({ request, query }) => page(VISIT_PATHS.edit, request, () => showEdit(request, query.path)), { query: PathQuery })
      .post(VISIT_PATHS.edit, ({ request, body }) => page(VISIT_PATHS.edit, request, () => saveEdit(request, body)), { body: Form })
  )
}
