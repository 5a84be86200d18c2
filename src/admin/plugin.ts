// The owner's pages and JSON API under /.admin: password setup, sessions, consents, static clients, OP key rotation,
// access grants, HttpSig keys and the "why may X do Y?" explanation.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toPlainResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { pageOrError } from '../http/html-page.ts'
import { log } from '../log.ts'
import { createStaticClient, deleteClient, readClients } from './clients.ts'
import { findOwnerSession, requireOwner } from './owner-guard.ts'
import { readConsents, readSessions, renderSessionsPage, revokeClientAccess, revokeSession } from './sessions.ts'
import { SETUP_NEXT, makeSetup } from './setup.ts'
import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'
import { createGrant, grantSchemaResponse, jsonErrors, listGrants, readGrant, revokeGrant } from './grants.ts'
import { explainAccess } from './access-explain.ts'
import { createKey, listKeys, revokeKey } from './keys.ts'
import { browseContainer } from './browse.ts'
import { readAclView } from './acl-view.ts'
import { checkRdf } from './check-rdf.ts'
import { readProfile } from './profile.ts'
import { dashboardScript, renderDashboard } from './dashboard.ts'

const SESSIONS_PAGE = ADMIN_PATHS.sessions
const SETUP_PATH = ADMIN_PATHS.setup
const API = ADMIN_PATHS.api

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })

const notFound = (what: string) => new HttpError(404, 'not_found', `there is no ${what} with this id`)

const SetupForm = t.Object({ csrf: t.Optional(t.String()), token: t.Optional(t.String()), password: t.Optional(t.String()), confirm: t.Optional(t.String()) })
const RevokeForm = t.Object({ csrf: t.Optional(t.String()), id: t.Optional(t.String()), client_id: t.Optional(t.String()) })
const GrantQuery = t.Object({ grantee: t.Optional(t.String()), registration: t.Optional(t.String()) })
const AccessQuery = t.Object({ agent: t.Optional(t.String()), resource: t.Optional(t.String()), origin: t.Optional(t.String()), client: t.Optional(t.String()) })

export function adminPlugin(deps: Deps) {
  const { cfg, grants, decider } = deps
  const setup = makeSetup(deps)
  const back = () => new Response(null, { status: 303, headers: { location: cfg.baseUrl + SESSIONS_PAGE } })
  /** Form posts of the sessions page: owner session + CSRF token + Origin. */
  const ownerForm = async (request: Request, sent: unknown) => {
    const session = await findOwnerSession(deps, request)
    if (!session) throw new HttpError(401, 'login_required', 'sign in as the owner first')
    checkCsrf({ cookieHeader: request.headers.get('cookie'), sent, origin: request.headers.get('origin'), baseUrl: cfg.baseUrl })
    return session
  }

  return new Elysia({ name: 'admin' })
    // The owner's API answers refusals as plain text with the error code first, like the RS.
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toPlainResponse))
    // Public: clients validate a grant before they send it
    .get(ADMIN_PATHS.grantSchema, () => grantSchemaResponse())
    .get(SETUP_PATH, ({ request, query }) => pageOrError(SETUP_PATH, () => setup.showSetup(query.token, request.headers.get('cookie')), SETUP_NEXT),
      { query: t.Object({ token: t.Optional(t.String()) }) })
    .post(SETUP_PATH, ({ request, body }) =>
      pageOrError(SETUP_PATH, () => setup.submitSetup(body, request.headers.get('cookie'), request.headers.get('origin')), SETUP_NEXT), { body: SetupForm })
    .get(ADMIN_PATHS.dashboard, ({ request }) => pageOrError(ADMIN_PATHS.dashboard, async () => {
      const session = await findOwnerSession(deps, request)
      if (!session) return new Response(null, { status: 303, headers: { location: cfg.baseUrl + loginPageFor(ADMIN_PATHS.dashboard) } })
      return renderDashboard(deps, session, request.headers.get('cookie'))
    }))
    .get(ADMIN_PATHS.dashboardScript, () => dashboardScript())
    .get(SESSIONS_PAGE, ({ request }) => pageOrError(SESSIONS_PAGE, async () => {
      const session = await findOwnerSession(deps, request)
      if (!session) return new Response(null, { status: 303, headers: { location: cfg.baseUrl + loginPageFor(SESSIONS_PAGE) } })
      return renderSessionsPage(deps, session, request.headers.get('cookie'))
    }))
    .post(ADMIN_PATHS.revokeSession, ({ request, body }) => pageOrError(SESSIONS_PAGE, async () => {
      await ownerForm(request, body.csrf)
      if (!body.id || !await revokeSession(deps, body.id)) throw notFound('session')
      return back()
    }), { body: RevokeForm })
    .post(ADMIN_PATHS.revokeConsent, ({ request, body }) => pageOrError(SESSIONS_PAGE, async () => {
      await ownerForm(request, body.csrf)
      if (!body.client_id || !await revokeClientAccess(deps, body.client_id)) throw notFound('consent')
      return back()
    }), { body: RevokeForm })
    // The JSON API: every route behind the owner guard
    .guard({}, (api) => api
      .resolve(async ({ request }) => ({ owner: await requireOwner(deps, request) }))
      .get(`${API}/csrf`, ({ request }) => {
        const { token, setCookie } = csrfTokenFor(request.headers.get('cookie'), cfg.baseUrl)
        const res = json({ token })
        if (setCookie) res.headers.append('set-cookie', setCookie)
        return res
      })
      .get(`${API}/sessions`, async ({ owner }) => json(await readSessions(deps, owner)))
      .delete(`${API}/sessions/:id`, async ({ params }) => {
        if (!await revokeSession(deps, params.id)) throw notFound('session')
        return new Response(null, { status: 204 })
      })
      .get(`${API}/browse`, async ({ query }) => json(await browseContainer(deps, query)))
      .get(`${API}/acl`, async ({ query }) => json(await readAclView(deps, query)))
      .get(`${API}/profile`, async () => json(await readProfile(deps)))
      .post(`${API}/check-rdf`, async ({ body }) => json(await checkRdf(body)), { body: t.Unknown() })
      .get(`${API}/consents`, async () => json(await readConsents(deps)))
      .delete(`${API}/consents/:clientId`, async ({ params }) => {
        if (!await revokeClientAccess(deps, params.clientId)) throw notFound('consent or session for a client')
        return new Response(null, { status: 204 })
      })
      .get(`${API}/clients`, async () => json(await readClients(deps)))
      .post(`${API}/clients`, async ({ body }) => json(await createStaticClient(deps, body), 201), { body: t.Unknown() })
      .delete(`${API}/clients/:clientId`, async ({ params }) => {
        if (!await deleteClient(deps, params.clientId)) throw notFound('client')
        return new Response(null, { status: 204 })
      })
      // The OP's signing key: new tokens use a new key; the old public key stays in the JWKS until its tokens expired
      .post(`${API}/signing-keys/rotate`, async () => {
        const kid = await deps.signingKeys.rotate(deps.now())
        log.info('admin.signing_key_rotated', { kid })
        return json({ kid }, 201)
      })
      // Access grants answer in JSON, refusals too (with the offending fields)
      .post(ADMIN_PATHS.grants, ({ request }) =>
        jsonErrors(async () => createGrant(deps, grants, request.headers.get('content-type'), await request.text())), { parse: 'none' })
      .get(ADMIN_PATHS.grants, ({ query }) => jsonErrors(() => listGrants(grants, query)), { query: GrantQuery })
      .get(`${ADMIN_PATHS.grants}/:id`, ({ params, request }) => jsonErrors(() => readGrant(grants, params.id, request.headers.get('accept'))))
      .delete(`${ADMIN_PATHS.grants}/:id`, ({ params }) => jsonErrors(() => revokeGrant(grants, params.id)))
      // HttpSig keys made in the browser: only public JWKs arrive here; answers in JSON like the grants
      .post(ADMIN_PATHS.keys, ({ request }) =>
        jsonErrors(async () => createKey(deps, request.headers.get('content-type'), await request.text())), { parse: 'none' })
      .get(ADMIN_PATHS.keys, () => jsonErrors(() => listKeys(deps)))
      .delete(`${ADMIN_PATHS.keys}/:name`, ({ params }) => jsonErrors(() => revokeKey(deps, params.name)))
      .get(ADMIN_PATHS.access, ({ query }) => jsonErrors(async () => json(await explainAccess(deps, decider, query))), { query: AccessQuery }))
}
