// The resource server role: every path not claimed by another role is a pod resource.

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toResourceResponse } from '../http/errors.ts'
import { fromFramework, logRefusal, renderError } from '../http/render-error.ts'
import { log, describeCause } from '../log.ts'
import { ANONYMOUS, isAuthenticated, type Principal } from '../auth/principal.ts'
import { ACCEPT_SIGNATURE_WITH_CONTENT } from '../auth/httpsig/http-sig.ts'
import { mayHaveContent } from '../auth/httpsig/content-digest.ts'
import { makeAccessControl } from '../policy/access-control.ts'
import { resolveTarget } from '../store/target.ts'
import { ADMIN_PATHS, isAdminPath, isReservedPath, RS_PATHS } from '../http/pod-paths.ts'
import { readablePath } from '../lib/readable-path.ts'
import { HOME_LINK, renderErrorPage } from '../http/html-page.ts'
import { challengeLinks, resourceHeaders } from './resource-headers.ts'
import { handlePut } from './handle-put.ts'
import { firstRequirements } from './first-requirements.ts'
import { handlePost } from './handle-post.ts'
import { handlePatch } from './handle-patch.ts'
import { handleDelete } from './handle-delete.ts'
import { describeStorage } from './storage-description.ts'
import { isAccessRefusal, prefersHtml, renderFrontDoor } from './front-door.ts'
import { reservedPathError } from '../resources/resource-names.ts'
import { withRefusalLinks } from './refusal-links.ts'
import { handleUploadResource } from './upload-resource.ts'
import { makeUploadSessions } from './upload-sessions.ts'
import { asksForUploadResource, createUpload } from './upload-creation.ts'
import { PARTIAL_UPLOAD } from './upload-fields.ts'
import { actingOf, type RsContext, type RsRequest } from './rs-context.ts'
import { answerPast, namesThePast, pastAskOf, withTimeGate } from './memento.ts'
import { listenerPrincipalOf } from '../channels/listener.ts'
import { DAV_CLASSES, DAV_METHODS, isWebDavRequest } from '../http/dav-methods.ts'
import { basicChallenge } from '../auth/challenges.ts'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The resource server: its Elysia plugin (route `/*`), and its handler for the app to call directly. */
export function makeResourceServer(deps: Deps) {
  const ctx: RsContext = { deps, access: makeAccessControl(deps), uploads: makeUploadSessions() }
  const { authenticate } = deps

  async function handle(request: Request): Promise<Response> {
    const target = resolveTarget(deps.cfg.baseUrl, request.url)
    const origin = request.headers.get('origin') ?? undefined
    let principal = ANONYMOUS
    let response: Response
    try {
      principal = await authenticate(request)
      response = await dispatch({ request, target, principal, origin })
    } catch (err) {
      response = await answerError(
        request,
        target.path,
        withBasicForDav(
          await withUmaChallenge(
            withSignatureHints(withRefusalLinks(err, deps.cfg.baseUrl, target.path), request, target.path),
            request.method,
            target.path,
            target.url,
          ),
          request,
        ),
      )
    }
    // WAC-Allow (WAC §6 / Solid Protocol) on every answer, also those that made no decision (OPTIONS, DELETE, 404/409/412 …).
    if (!response.headers.has('wac-allow')) {
      // Only a broken storage (no root ACL) fails here, and the answer already says what went wrong.
      const wacAllow = await ctx.access.wacAllowFor(principal, target.url, origin).catch((err: unknown) => {
        log.warn('wac_allow.unavailable', { path: target.path, cause: describeCause(err) })
        return undefined
      })
      if (wacAllow !== undefined) response.headers.set('wac-allow', wacAllow)
    }
    return withUpdatesVia(response, principal)
  }

  /**
   * The legacy solid-0.1 socket (rdflib, SolidOS), with the reader's capability when they are not anonymous, on
   * every answer as Node Solid Server sent it: a client HEADs a resource, subscribes, then creates it, so a 404
   * (or 401, 403 …) must name the socket too.
   */
  async function withUpdatesVia(response: Response, principal: Principal): Promise<Response> {
    if (response.headers.has('updates-via')) return response
    response.headers.set(
      'updates-via',
      isAuthenticated(principal) ? await deps.legacyCapabilities.updatesViaFor(listenerPrincipalOf(principal)) : deps.legacyCapabilities.anonymousUrl,
    )
    return response
  }

  /**
   * Every 401 carries the UMA challenge (UMA Grant §3.2): a refusal by the rules has one for exactly what it
   * needed; a refused credential (the rules never asked) gets one for what the handler checks first.
   */
  async function withUmaChallenge(err: unknown, method: string, path: string, url: string): Promise<unknown> {
    if (!(err instanceof HttpError) || err.status !== 401) return err
    const given = err.headers['www-authenticate']
    const challenges = given === undefined ? [] : Array.isArray(given) ? given : [given]
    if (challenges.some(c => c.startsWith('UMA '))) return err
    const needs = await firstRequirements(deps.store, method, path, url)
    if (needs.length === 0) return err
    return new HttpError(401, err.code, err.description, {
      cause: err.cause,
      headers: { ...err.headers, 'www-authenticate': [await ctx.access.challengeFor(needs), ...challenges] },
    })
  }

  /**
   * HttpSig step 2: a refused credential (when authenticating, or when its signature did not match the body)
   * still names the ACL (and types), so a client can look for another key. RFC 9421 §5.1 with RFC 9530: a
   * request that may carry content is asked to sign its Content-Digest too, also by the anonymous refusal.
   */
  function withSignatureHints(err: unknown, request: Request, path: string): unknown {
    if (!(err instanceof HttpError) || err.status !== 401) return err
    const content = 'accept-signature' in err.headers && mayHaveContent(request.headers)
    if ('link' in err.headers && !content) return err
    return new HttpError(401, err.code, err.description, {
      cause: err.cause,
      headers: { link: challengeLinks(deps.cfg.baseUrl, path), ...err.headers, ...(content ? { 'accept-signature': ACCEPT_SIGNATURE_WITH_CONTENT } : {}) },
    })
  }

  /**
   * A WebDAV client (http/dav-methods.ts `isWebDavRequest`) refused for want of a credential is offered Basic too:
   * access is decided before locks, so a mounted drive's unsigned write to a locked file learns it must sign in
   * (and then that the file is locked) rather than that it is locked. A browser is never offered it (a password box).
   */
  function withBasicForDav(err: unknown, request: Request): unknown {
    if (!(err instanceof HttpError) || err.status !== 401 || !isWebDavRequest(request)) return err
    const given = err.headers['www-authenticate']
    const challenges = given === undefined ? [] : Array.isArray(given) ? given : [given]
    if (challenges.some(c => c.startsWith('Basic'))) return err
    return new HttpError(401, err.code, err.description, {
      cause: err.cause,
      headers: { ...err.headers, 'www-authenticate': [...challenges, basicChallenge()] },
    })
  }

  /**
   * A person in a browser gets the front door instead of a bare refusal; apps get the refusal as is. An address among
   * the pod's own pages that none of them answers (`/.admin/typo`) is no resource kept from them: the front door's
   * "is not public" would be untrue, so the page says there is none.
   */
  async function answerError(request: Request, path: string, err: unknown): Promise<Response> {
    if (!isAccessRefusal(err) || !prefersHtml(request)) return renderError(request, err, toResourceResponse(request))
    if (isReservedPath(path)) {
      const next = isAdminPath(path) ? { href: ADMIN_PATHS.dashboard, label: 'The dashboard' } : HOME_LINK
      return renderErrorPage(path, new HttpError(404, 'not_found', `the pod has no page at ${readablePath(path)}`), { links: [next] }, { vary: 'Accept' })
    }
    logRefusal({ method: request.method, path }, err)
    return renderFrontDoor({ store: deps.store, baseUrl: deps.cfg.baseUrl, now: deps.now(), request, path }, err)
  }

  function dispatch(r: RsRequest): Promise<Response> {
    const method = r.request.method.toUpperCase()
    if (r.target.path.startsWith(RS_PATHS.uploads) && method !== 'OPTIONS') return handleUploadResource(ctx, r)
    // the pod's URL space (http/pod-paths.ts): paths of the pod's own endpoints are never pod resources, whatever the method.
    if (isReservedPath(r.target.path) && !READS.has(method)) throw reservedPathError(r.target.path)
    // A memento or TimeMap is the past: never written (RFC 7089 §2.1.2); the query would otherwise be dropped and the present written.
    if (!READS.has(method) && deps.cfg.keepVersionsDays > 0 && namesThePast(r.request.url)) {
      throw new HttpError(405, 'method_not_allowed', 'a memento or TimeMap cannot be changed', { headers: { allow: 'GET, HEAD, OPTIONS' } })
    }
    switch (method) {
      case 'GET':
      case 'HEAD':
        return read(r, method === 'HEAD')
      case 'OPTIONS':
        return options(r)
      case 'PUT':
        return resumable(r, 'PUT') ?? handlePut(ctx, r)
      case 'POST':
        return resumable(r, 'POST') ?? handlePost(ctx, r)
      case 'PATCH':
        return handlePatch(ctx, r)
      case 'DELETE':
        return handleDelete(ctx, r)
      default:
        throw new HttpError(405, 'method_not_allowed', `${method} is not supported`, { headers: { allow: 'GET, HEAD, OPTIONS, PUT, POST, PATCH, DELETE' } })
    }
  }

  /** IETF draft-ietf-httpbis-resumable-upload §4.2: a PUT or POST that asks for an upload resource gets one. */
  function resumable(r: RsRequest, method: 'PUT' | 'POST'): Promise<Response> | undefined {
    const version = asksForUploadResource(r, method)
    return version === undefined ? undefined : createUpload(ctx, r, method, version)
  }

  async function read(r: RsRequest, head: boolean): Promise<Response> {
    const versions = deps.cfg.keepVersionsDays > 0
    const past = versions ? pastAskOf(r.request) : undefined
    if (past) return answerPast(ctx, r, past, head)
    const { path } = r.target
    // Read decided first, existence told only after (resources/read-resource.ts).
    const readable = await deps.resources.read(actingOf(r), path)
    const { meta, wacAllow, publicRead } = readable
    const headers = resourceHeaders(deps.cfg.baseUrl, path, meta)
    headers.append('wac-allow', wacAllow)
    if (versions) withTimeGate(headers, r.target.url)
    // RFC 9111 §5.2.2.4: a browser may keep a copy but asks again (the ETag makes that a 304) before using it, so
    // a document saved a moment ago is never shown as it was; a copy read with credentials stays in that browser
    headers.set('cache-control', publicRead ? 'no-cache' : 'private, no-cache')
    return deps.resources.represent(path, readable, {
      accept: r.request.headers.get('accept'),
      requestUrl: r.request.url,
      requestHeaders: r.request.headers,
      head,
      headers,
    })
  }

  // OPTIONS needs no access (WAC §6.4), so it answers from the path alone: no existence oracle.
  async function options(r: RsRequest): Promise<Response> {
    // An upload resource (resumable uploads, draft -10 and later): what it takes, from the path alone, as for any resource.
    if (r.target.path.startsWith(RS_PATHS.uploads)) {
      return new Response(null, { status: 204, headers: { allow: 'HEAD, PATCH, DELETE, OPTIONS', 'accept-patch': PARTIAL_UPLOAD } })
    }
    const headers = resourceHeaders(deps.cfg.baseUrl, r.target.path, undefined)
    // RFC 4918 §10.1, §18: a pod resource is a WebDAV resource too (the dav role answers those methods)
    if (!isReservedPath(r.target.path)) {
      headers.set('dav', DAV_CLASSES)
      headers.set('allow', `${headers.get('allow')}, ${DAV_METHODS.join(', ')}`)
      // Windows' WebDAV client (and Office) look for it before they take a URL as a drive
      headers.set('ms-author-via', 'DAV')
    }
    return new Response(null, { status: 204, headers })
  }

  const respond = (request: Request) => handle(request).catch(err => withUpdatesVia(renderError(request, err, toResourceResponse(request)), ANONYMOUS))

  const plugin = new Elysia({ name: 'rs' })
    // Solid Protocol §2.1 leaves error bodies open: the RS answers a status, its challenges and a plain-text
    // reason, or RFC 9457 problem details to a client that asks for them (the dashboard, the owner's forms).
    .onError(({ code, error, request }) => withUpdatesVia(renderError(request, fromFramework(code, error), toResourceResponse(request)), ANONYMOUS))
    .get(RS_PATHS.storageDescription, ({ request }) => describeStorage(deps.cfg.baseUrl, request.headers.get('accept')))
    .all('/*', ({ request }) => respond(request), { parse: 'none' })
    .all('/', ({ request }) => respond(request), { parse: 'none' })
  return { plugin, handle: respond }
}
