// Routes of the owner's client credentials: the JSON API under /.admin/api/credentials (owner guard, JSON
// refusals) and the dashboard's page with its two forms (owner session, CSRF token, error pages).

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toJsonResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { jsonResponse } from '../http/json-response.ts'
import { checkCsrf } from '../http/csrf.ts'
import { errorPage, pageOrError } from '../http/html-page.ts'
import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'
import { findOwnerSession, requireOwner } from './owner-guard.ts'
import { backTo, seeOther } from './owner-page.ts'
import { createCredential, readCredentials, removeCredential } from './credentials.ts'
import { addCredentialFromForm, showCredentialsPage } from './credentials-page.ts'

const notFound = () => new HttpError(404, 'not_found', 'there is no client credential with this id')
const PlainForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))

export function credentialsApi(deps: Deps) {
  const API = ADMIN_PATHS.credentials
  return new Elysia({ name: 'admin-credentials-api' })
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toJsonResponse))
    .guard({}, (api) => api
      .resolve(async ({ request }) => ({ owner: await requireOwner(deps, request) }))
      .get(API, async () => jsonResponse(await readCredentials(deps)))
      .post(API, async ({ body }) => jsonResponse(await createCredential(deps, body), { status: 201 }), { body: t.Unknown() })
      .delete(`${API}/:id`, async ({ params }) => {
        if (!await removeCredential(deps, params.id)) throw notFound()
        return new Response(null, { status: 204 })
      }))
}

export function credentialsPages(deps: Deps) {
  const PAGE = ADMIN_PATHS.credentialsPage
  const back = backTo(PAGE, 'Back to scripts and bots')
  /** Owner session, CSRF token and Origin, as every form of the owner's pages. */
  const ownerForm = async (request: Request, sent: unknown) => {
    if (!await findOwnerSession(deps, request)) throw new HttpError(401, 'login_required', 'sign in as the owner first')
    checkCsrf({ cookieHeader: request.headers.get('cookie'), sent, origin: request.headers.get('origin'), baseUrl: deps.cfg.baseUrl })
  }
  const cookieOf = (request: Request) => request.headers.get('cookie')
  return new Elysia({ name: 'admin-credentials-pages' })
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), (err) => errorPage(err, back)))
    .get(PAGE, ({ request, query }) => pageOrError(PAGE, async () => {
      if (!await findOwnerSession(deps, request)) return seeOther(deps.cfg.baseUrl + loginPageFor(PAGE))
      return showCredentialsPage(deps, cookieOf(request), { done: query.done })
    }, back), { query: t.Object({ done: t.Optional(t.String()) }) })
    .post(ADMIN_PATHS.credentialsAdd, ({ request, body }) => pageOrError(ADMIN_PATHS.credentialsAdd, async () => {
      await ownerForm(request, body.csrf)
      return addCredentialFromForm(deps, cookieOf(request), body)
    }, back), { body: PlainForm })
    .post(ADMIN_PATHS.credentialsRemove, ({ request, body }) => pageOrError(ADMIN_PATHS.credentialsRemove, async () => {
      await ownerForm(request, body.csrf)
      if (typeof body.id !== 'string' || !await removeCredential(deps, body.id)) throw notFound()
      return seeOther(`${PAGE}?done=removed`)
    }, back), { body: PlainForm })
}
