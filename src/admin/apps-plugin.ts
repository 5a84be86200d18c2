// Apps and sessions: the owner's logins, the apps' sessions and consents, what each app may reach, the
// static clients, the OP's signing key, the open live-update subscriptions; pages and JSON API.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { jsonResponse } from '../http/json-response.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { log } from '../log.ts'
import { ownerGuard } from './owner-guard.ts'
import { backTo, seeOther } from './owner-page.ts'
import { ListForm, RevokeForm, notFound } from './model.ts'
import { createStaticClient, deleteClient, readClients } from './clients.ts'
import { readConsents, readPeople, readSessions, revokeClientAccess, revokeSession } from './sessions.ts'
import { showSessionsPage } from './sessions-page.ts'
import { endChannel, readChannels, showLiveUpdatesPage } from './live-updates.ts'
import { putAppAccess, showAppAccessPage, submitAppAccessPage } from './app-access.ts'

const SESSIONS_PAGE = ADMIN_PATHS.sessions
const API = ADMIN_PATHS.api
const TO_SESSIONS = backTo(SESSIONS_PAGE, 'Back to Apps and sessions')

export function appsPlugin(deps: Deps) {
  const cookieOf = (request: Request) => request.headers.get('cookie')
  /** Back to Apps and sessions, which says what was done. */
  const back = (done: string) => seeOther(`${deps.cfg.baseUrl}${SESSIONS_PAGE}?done=${done}`)
  return new Elysia({ name: 'admin-apps' })
    .use(ownerGuard(deps))
    .get(SESSIONS_PAGE, ({ request, query, owner }) => showSessionsPage(deps, owner, cookieOf(request), query.done), { ownerPage: { returnTo: SESSIONS_PAGE } })
    .post(
      ADMIN_PATHS.revokeSession,
      async ({ body }) => {
        const kind = body.id ? await revokeSession(deps, body.id) : undefined
        if (!kind) throw notFound('session')
        return back(kind === 'login' ? 'signed_out' : kind === 'visitor' ? 'visitor' : 'ended')
      },
      { body: RevokeForm, ownerForm: { next: TO_SESSIONS } },
    )
    .get(ADMIN_PATHS.appAccess, ({ request, query }) => showAppAccessPage(deps, cookieOf(request), query.client_id), {
      ownerPage: { returnTo: ADMIN_PATHS.appAccess, next: TO_SESSIONS },
    })
    .post(
      ADMIN_PATHS.appAccess,
      async ({ body }) => {
        await submitAppAccessPage(deps, body)
        return back('access')
      },
      { body: ListForm, ownerForm: { next: TO_SESSIONS } },
    )
    .post(
      ADMIN_PATHS.revokeConsent,
      async ({ body }) => {
        if (!body.client_id || !(await revokeClientAccess(deps, body.client_id))) throw notFound('consent')
        return back('revoked')
      },
      { body: RevokeForm, ownerForm: { next: TO_SESSIONS } },
    )
    .get(ADMIN_PATHS.liveUpdates, ({ request, query }) => showLiveUpdatesPage(deps, cookieOf(request), query.done), {
      ownerPage: { returnTo: ADMIN_PATHS.liveUpdates },
    })
    .post(
      ADMIN_PATHS.endChannel,
      ({ body }) => {
        if (!body.id || !endChannel(deps, body.id)) throw notFound('open subscription')
        return seeOther(`${ADMIN_PATHS.liveUpdates}?done=ended`)
      },
      { body: RevokeForm, ownerForm: { next: backTo(ADMIN_PATHS.liveUpdates, 'Back to live updates') } },
    )
    .guard({ ownerApi: true }, api =>
      api
        .get(`${API}/sessions`, async ({ owner }) => jsonResponse(await readSessions(deps, owner)))
        .get(`${API}/people`, async () => jsonResponse(await readPeople(deps)))
        .delete(`${API}/sessions/:id`, async ({ params }) => {
          if (!(await revokeSession(deps, params.id))) throw notFound('session')
          return new Response(null, { status: 204 })
        })
        .get(ADMIN_PATHS.channels, async () => jsonResponse(await readChannels(deps)))
        .delete(`${ADMIN_PATHS.channels}/:id`, ({ params }) => {
          if (!endChannel(deps, params.id)) throw notFound('open subscription')
          return new Response(null, { status: 204 })
        })
        .get(`${API}/consents`, async () => jsonResponse(await readConsents(deps)))
        .delete(`${API}/consents/:clientId`, async ({ params }) => {
          if (!(await revokeClientAccess(deps, params.clientId))) throw notFound('consent or session for a client')
          return new Response(null, { status: 204 })
        })
        .put(ADMIN_PATHS.appAccessApi, async ({ query, body }) => jsonResponse(await putAppAccess(deps, query.client_id, body)), { body: t.Unknown() })
        .get(`${API}/clients`, async () => jsonResponse(await readClients(deps)))
        .post(`${API}/clients`, async ({ body }) => jsonResponse(await createStaticClient(deps, body), { status: 201 }), { body: t.Unknown() })
        .delete(`${API}/clients/:clientId`, async ({ params }) => {
          if (!(await deleteClient(deps, params.clientId))) throw notFound('client')
          return new Response(null, { status: 204 })
        })
        // The OP's signing key: new tokens use a new key; the old public key stays in the JWKS until its tokens expired
        .post(`${API}/signing-keys/rotate`, async () => {
          const kid = await deps.signingKeys.rotate(deps.now())
          log.info('admin.signing_key_rotated', { kid })
          return jsonResponse({ kid }, { status: 201 })
        }),
    )
}
