// The owner's pages and JSON API under /.admin: password setup, sessions, consents, static clients, OP key rotation,
// access grants, HttpSig keys and the "why may X do Y?" explanation.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toJsonResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { jsonResponse } from '../http/json-response.ts'
import { checkCsrf, csrfTokenFor } from '../http/csrf.ts'
import { errorPage, pageOrError, type NextSteps } from '../http/html-page.ts'
import { log } from '../log.ts'
import { createStaticClient, deleteClient, readClients } from './clients.ts'
import { findOwnerSession, requireOwner } from './owner-guard.ts'
import { readConsents, readSessions, revokeClientAccess, revokeSession, readPeople } from './sessions.ts'
import { showSessionsPage } from './sessions-page.ts'
import { SETUP_NEXT, makeSetup } from './setup.ts'
import { ADMIN_PATHS, loginPageFor } from '../http/pod-paths.ts'
import { createGrant, grantSchemaResponse, listGrants, readGrant, revokeGrant } from './grants.ts'
import { explainAccess } from './access-explain.ts'
import { createKey, listKeys, revokeKey } from './keys.ts'
import { browseContainer } from './browse.ts'
import { readAclView } from './acl-view.ts'
import { checkRdf } from './check-rdf.ts'
import { readProfile } from './profile.ts'
import { dashboardScript } from './dashboard.ts'
import { makeBackups } from './backup.ts'
import { makeCookieLdp, type Forward, type CookieLdp } from '../http/cookie-ldp.ts'
import { createFolder, deleteResource, downloadResource, filesPage, showDeletePage, showFilesPage, uploadFiles } from './files-page.ts'
import { uploadFormParts } from '../http/upload-form.ts'
import { passwordProblemOf, showBackupPage, showProfilePage, showStatusPage } from './account-pages.ts'
import { readPodStatus } from './pod-status.ts'
import { backTo, seeOther } from './owner-page.ts'
import { saveProfile } from './profile.ts'
import { addShareEntry, removeShareEntry, sharePage, showInheritPage, showSharePage, useInheritedAccess } from './share-page.ts'
import { editPage, saveDocument, showEditPage } from './edit-page.ts'
import { endChannel, readChannels, showLiveUpdatesPage } from './live-updates.ts'
import { putAppAccess, showAppAccessPage, submitAppAccessPage } from './app-access.ts'
import { credentialsApi, credentialsPages } from './credentials-routes.ts'
import { previewFile } from './preview-file.ts'
import { showViewPage } from './view-page.ts'
import { makePasswordChange } from './change-password.ts'
import { checkPictureLength, readPicture, setProfilePicture, uploadProfilePicture } from './profile-picture.ts'
import { moveBody, moveFiles } from './move-files.ts'
import { countFolder, deleteFolder } from './delete-folder.ts'
import { listTrash, moveToTrash, restoreTrashed } from './trash-files.ts'
import { showMovePage, submitMovePage } from './move-page.ts'
import { showDeleteSelected, showMoveSelected, submitDeleteSelected, submitMoveSelected } from './selection-pages.ts'
import { showTrashPage, submitRestore } from './trash-page.ts'
import { showGrantsPage, submitGrantForm, submitGrantRevoke } from './grants-page.ts'
import { showKeysPage, submitKeyForm, submitKeyRevoke } from './keys-page.ts'
import { checkWebId } from './webid-check.ts'

const SESSIONS_PAGE = ADMIN_PATHS.sessions
const SETUP_PATH = ADMIN_PATHS.setup
const API = ADMIN_PATHS.api

/** The Files page's selection as its GET form sends it: every `item` of the query (a repeated field). */
const itemsOf = (request: Request) => new URL(request.url).searchParams.getAll('item')
const selectedFolder = (request: Request) => {
  const path = new URL(request.url).searchParams.get('path')
  return path?.startsWith('/') && path.endsWith('/') ? path : '/'
}
const notFound = (what: string) => new HttpError(404, 'not_found', `there is no ${what} with this id`)

const SetupForm = t.Object({ csrf: t.Optional(t.String()), token: t.Optional(t.String()), password: t.Optional(t.String()), confirm: t.Optional(t.String()) })
const CsrfForm = t.Object({ csrf: t.Optional(t.String()) })
const PlainForm = t.Record(t.String(), t.String())
/** A form with repeated fields (an app's folders and their rights): a repeated name arrives as an array. */
const ListForm = t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]))
const RevokeForm = t.Object({ csrf: t.Optional(t.String()), id: t.Optional(t.String()), client_id: t.Optional(t.String()) })
const GrantQuery = t.Object({ grantee: t.Optional(t.String()), registration: t.Optional(t.String()) })
const AccessQuery = t.Object({ agent: t.Optional(t.String()), resource: t.Optional(t.String()), origin: t.Optional(t.String()), client: t.Optional(t.String()), issuer: t.Optional(t.String()) })

/** `forward`: the app's own handler, through which the no-script forms make their LDP requests. */
export function adminPlugin(deps: Deps, forward: Forward) {
  const { cfg } = deps
  const setup = makeSetup(deps)
  const backups = makeBackups(deps)
  const ldp = makeCookieLdp(cfg.baseUrl, forward)
  const changeOwnerPassword = makePasswordChange(deps)
  /** A page for the owner only: without a session, the login page that comes back here. */
  const ownerPage = (path: string, request: Request, render: () => Promise<Response>, next?: NextSteps) => pageOrError(path, async () => {
    if (!await findOwnerSession(deps, request)) return seeOther(cfg.baseUrl + loginPageFor(path))
    return render()
  }, next)
  const cookieOf = (request: Request) => request.headers.get('cookie')
  /** Back to Apps and sessions, which says what was done. */
  const back = (done: string) => seeOther(`${cfg.baseUrl}${SESSIONS_PAGE}?done=${done}`)
  /** Form posts of the sessions page: owner session + CSRF token + Origin. */
  const ownerForm = async (request: Request, sent: unknown) => {
    const session = await findOwnerSession(deps, request)
    if (!session) throw new HttpError(401, 'login_required', 'sign in as the owner first')
    checkCsrf({ cookieHeader: request.headers.get('cookie'), sent, origin: request.headers.get('origin'), baseUrl: cfg.baseUrl })
    return session
  }

  return new Elysia({ name: 'admin' })
    // The JSON API first: its own refusals are JSON; the page routes' hook below does not reach it.
    .use(ownerApi(deps, ldp, backups, changeOwnerPassword))
    // Scripts and bots: client credentials (their JSON API and their page)
    .use(credentialsApi(deps)).use(credentialsPages(deps))
    // Page routes answer refusals with the error page (pageOrError); what escapes it (a form Elysia's
    // schema refused, a failure) gets the same page.
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), (err) => errorPage(err)))
    // Public: clients validate a grant before they send it
    .get(ADMIN_PATHS.grantSchema, () => grantSchemaResponse())
    .get(SETUP_PATH, ({ request, query }) => pageOrError(SETUP_PATH, () => setup.showSetup(query.token, request.headers.get('cookie')), SETUP_NEXT),
      { query: t.Object({ token: t.Optional(t.String()) }) })
    .post(SETUP_PATH, ({ request, body }) =>
      pageOrError(SETUP_PATH, () => setup.submitSetup(body, request.headers.get('cookie'), request.headers.get('origin')), SETUP_NEXT), { body: SetupForm })
    // The dashboard opens on the owner's files
    .get(ADMIN_PATHS.dashboard, ({ request, query }) => ownerPage(ADMIN_PATHS.dashboard, request, () => showFilesPage(deps, cookieOf(request), query), backTo(filesPage('/'), 'Your files')))
    .get(ADMIN_PATHS.dashboardScript, () => dashboardScript())
    .get(SESSIONS_PAGE, ({ request, query }) => pageOrError(SESSIONS_PAGE, async () => {
      const session = await findOwnerSession(deps, request)
      if (!session) return seeOther(cfg.baseUrl + loginPageFor(SESSIONS_PAGE))
      return showSessionsPage(deps, session, cookieOf(request), query.done)
    }))
    .post(ADMIN_PATHS.revokeSession, ({ request, body }) => pageOrError(SESSIONS_PAGE, async () => {
      await ownerForm(request, body.csrf)
      const kind = body.id ? await revokeSession(deps, body.id) : undefined
      if (!kind) throw notFound('session')
      return back(kind === 'login' ? 'signed_out' : kind === 'visitor' ? 'visitor' : 'ended')
    }, backTo(SESSIONS_PAGE, 'Back to Apps and sessions')), { body: RevokeForm })
    .get(ADMIN_PATHS.appAccess, ({ request, query }) => ownerPage(ADMIN_PATHS.appAccess, request, () => showAppAccessPage(deps, cookieOf(request), query.client_id), backTo(SESSIONS_PAGE, 'Back to Apps and sessions')))
    .post(ADMIN_PATHS.appAccess, ({ request, body }) => pageOrError(ADMIN_PATHS.appAccess, async () => {
      await ownerForm(request, body.csrf)
      await submitAppAccessPage(deps, body)
      return back('access')
    }, backTo(SESSIONS_PAGE, 'Back to Apps and sessions')), { body: ListForm })
    .post(ADMIN_PATHS.revokeConsent, ({ request, body }) => pageOrError(SESSIONS_PAGE, async () => {
      await ownerForm(request, body.csrf)
      if (!body.client_id || !await revokeClientAccess(deps, body.client_id)) throw notFound('consent')
      return back('revoked')
    }, backTo(SESSIONS_PAGE, 'Back to Apps and sessions')), { body: RevokeForm })
    .get(ADMIN_PATHS.liveUpdates, ({ request, query }) => ownerPage(ADMIN_PATHS.liveUpdates, request, () => showLiveUpdatesPage(deps, cookieOf(request), query.done)))
    .post(ADMIN_PATHS.endChannel, ({ request, body }) => pageOrError(ADMIN_PATHS.endChannel, async () => {
      await ownerForm(request, body.csrf)
      if (!body.id || !endChannel(deps, body.id)) throw notFound('open subscription')
      return seeOther(`${ADMIN_PATHS.liveUpdates}?done=ended`)
    }, backTo(ADMIN_PATHS.liveUpdates, 'Back to live updates')), { body: RevokeForm })
    // A plain form post (works without JavaScript); the answer is the archive, or an error page
    .post(ADMIN_PATHS.backup, ({ request, body }) => pageOrError(ADMIN_PATHS.backup, async () => {
      await ownerForm(request, body.csrf)
      return backups.download()
    }, backTo(ADMIN_PATHS.backup, 'Back to Backup')), { body: CsrfForm })
    .get(ADMIN_PATHS.backup, ({ request }) => ownerPage(ADMIN_PATHS.backup, request, () => showBackupPage(deps, cookieOf(request))))
    .get(ADMIN_PATHS.status, ({ request }) => ownerPage(ADMIN_PATHS.status, request, () => showStatusPage(deps, cookieOf(request))))
    // Files, profile: pages and forms that need no JavaScript; changes go through the resource server
    .get(ADMIN_PATHS.files, ({ request, query }) => ownerPage(ADMIN_PATHS.files, request, () => showFilesPage(deps, cookieOf(request), query), backTo(filesPage('/'), 'Your files')))
    .post(ADMIN_PATHS.newFolder, ({ request, body }) => pageOrError(ADMIN_PATHS.newFolder, async () => {
      await ownerForm(request, body.csrf)
      return createFolder(ldp, request, body)
    }, backTo(filesPage(body.path ?? '/'), 'Back to the folder')), { body: PlainForm })
    .post(ADMIN_PATHS.upload, ({ request }) => pageOrError(ADMIN_PATHS.upload, async () => {
      return uploadFiles(ldp, request, uploadFormParts(request), async (csrf) => { await ownerForm(request, csrf) })
    }, backTo(filesPage('/'), 'Your files')), { parse: 'none' })
    .get(ADMIN_PATHS.download, ({ request, query }) => ownerPage(ADMIN_PATHS.files, request, () => downloadResource(ldp, request, query.path), backTo(filesPage('/'), 'Your files')))
    .get(ADMIN_PATHS.preview, ({ request, query }) => ownerPage(ADMIN_PATHS.files, request, () => previewFile(ldp, request, query.path), backTo(filesPage('/'), 'Your files')))
    .get(ADMIN_PATHS.view, ({ request, query }) => ownerPage(ADMIN_PATHS.files, request, () => showViewPage(deps, ldp, request, query.path), backTo(filesPage('/'), 'Your files')))
    .get(ADMIN_PATHS.delete, ({ request, query }) => ownerPage(ADMIN_PATHS.files, request, () => showDeletePage(deps, cookieOf(request), query.path), backTo(filesPage('/'), 'Your files')))
    .post(ADMIN_PATHS.delete, ({ request, body }) => pageOrError(ADMIN_PATHS.delete, async () => {
      await ownerForm(request, body.csrf)
      return deleteResource(deps, ldp, request, body)
    }, backTo(filesPage('/'), 'Your files')), { body: PlainForm })
    // The Files page's selection: the items arrive as repeated `item` fields (read from the URL: every one of them)
    .get(ADMIN_PATHS.deleteSelected, ({ request }) => ownerPage(ADMIN_PATHS.files, request, () => showDeleteSelected(deps, cookieOf(request), itemsOf(request)), backTo(filesPage(selectedFolder(request)), 'Back to the folder')))
    .post(ADMIN_PATHS.deleteSelected, ({ request, body }) => pageOrError(ADMIN_PATHS.deleteSelected, async () => {
      await ownerForm(request, body.csrf)
      return submitDeleteSelected(deps, body)
    }, backTo(filesPage('/'), 'Your files', 'Nothing deleted')), { body: ListForm })
    .get(ADMIN_PATHS.moveSelected, ({ request }) => ownerPage(ADMIN_PATHS.files, request, () => showMoveSelected(deps, cookieOf(request), itemsOf(request)), backTo(filesPage(selectedFolder(request)), 'Back to the folder')))
    .post(ADMIN_PATHS.moveSelected, ({ request, body }) => pageOrError(ADMIN_PATHS.moveSelected, async () => {
      await ownerForm(request, body.csrf)
      return submitMoveSelected(deps, body)
    }, backTo(filesPage('/'), 'Your files')), { body: ListForm })
    .get(ADMIN_PATHS.trashPage, ({ request, query }) => ownerPage(ADMIN_PATHS.trashPage, request, () => showTrashPage(deps, cookieOf(request), query), backTo(filesPage('/'), 'Your files')))
    .post(ADMIN_PATHS.trashRestore, ({ request, body }) => pageOrError(ADMIN_PATHS.trashRestore, async () => {
      await ownerForm(request, body.csrf)
      return submitRestore(deps, body)
    }, backTo(ADMIN_PATHS.trashPage, 'Back to the trash', 'Nothing restored')), { body: PlainForm })
    .get(ADMIN_PATHS.move, ({ request, query }) => ownerPage(ADMIN_PATHS.files, request, () => showMovePage(deps, cookieOf(request), query.path), backTo(filesPage('/'), 'Your files')))
    .post(ADMIN_PATHS.move, ({ request, body }) => pageOrError(ADMIN_PATHS.move, async () => {
      await ownerForm(request, body.csrf)
      return submitMovePage(deps, body)
    }, backTo(body.path ? `${ADMIN_PATHS.move}?path=${encodeURIComponent(body.path)}` : filesPage('/'), 'Back to Rename')), { body: PlainForm })
    .get(ADMIN_PATHS.edit, ({ request, query }) => ownerPage(ADMIN_PATHS.edit, request, () => showEditPage(deps, ldp, request, query), backTo(filesPage('/'), 'Your files')))
    .post(ADMIN_PATHS.edit, ({ request, body }) => pageOrError(ADMIN_PATHS.edit, async () => {
      await ownerForm(request, body.csrf)
      return saveDocument(deps, ldp, request, body)
    }, backTo(body.path ? editPage(body.path) : filesPage('/'), 'Back to the document')), { body: PlainForm })
    // Sharing: each change rewrites the ACL document through the resource server, one step per change
    .get(ADMIN_PATHS.share, ({ request, query }) => ownerPage(ADMIN_PATHS.share, request, () => showSharePage(deps, ldp, request, query), backTo(filesPage('/'), 'Your files')))
    .post(ADMIN_PATHS.shareAdd, ({ request, body }) => pageOrError(ADMIN_PATHS.shareAdd, async () => {
      await ownerForm(request, body.csrf)
      return addShareEntry(deps, ldp, request, body)
    }, backTo(sharePage(body.path ?? '/'), 'Back to sharing', 'Access not changed')), { body: PlainForm })
    .post(ADMIN_PATHS.shareRemove, ({ request, body }) => pageOrError(ADMIN_PATHS.shareRemove, async () => {
      await ownerForm(request, body.csrf)
      return removeShareEntry(deps, ldp, request, body)
    }, backTo(sharePage(body.path ?? '/'), 'Back to sharing', 'Access not changed')), { body: PlainForm })
    .get(ADMIN_PATHS.shareInherit, ({ request, query }) => ownerPage(ADMIN_PATHS.share, request, () => showInheritPage(deps, ldp, request, query), backTo(sharePage(query.path ?? '/'), 'Back to sharing')))
    .post(ADMIN_PATHS.shareInherit, ({ request, body }) => pageOrError(ADMIN_PATHS.shareInherit, async () => {
      await ownerForm(request, body.csrf)
      return useInheritedAccess(deps, ldp, request, body)
    }, backTo(sharePage(body.path ?? '/'), 'Back to sharing', 'Access not changed')), { body: PlainForm })
    // Grants and HttpSig keys: the pages' forms call the API's own functions
    .get(ADMIN_PATHS.grantsPage, ({ request, query }) => ownerPage(ADMIN_PATHS.grantsPage, request, () => showGrantsPage(deps, cookieOf(request), query.done)))
    .post(ADMIN_PATHS.grantsPage, ({ request, body }) => pageOrError(ADMIN_PATHS.grantsPage, async () => {
      await ownerForm(request, body.csrf)
      return submitGrantForm(deps, body)
    }, backTo(ADMIN_PATHS.grantsPage, 'Back to grants', 'Grant not created')), { body: ListForm })
    .post(ADMIN_PATHS.grantsRevoke, ({ request, body }) => pageOrError(ADMIN_PATHS.grantsRevoke, async () => {
      await ownerForm(request, body.csrf)
      return submitGrantRevoke(deps, body)
    }, backTo(ADMIN_PATHS.grantsPage, 'Back to grants')), { body: PlainForm })
    .get(ADMIN_PATHS.keysPage, ({ request, query }) => ownerPage(ADMIN_PATHS.keysPage, request, () => showKeysPage(deps, cookieOf(request), query.done)))
    .post(ADMIN_PATHS.keysPage, ({ request, body }) => pageOrError(ADMIN_PATHS.keysPage, async () => {
      await ownerForm(request, body.csrf)
      return submitKeyForm(deps, body)
    }, backTo(ADMIN_PATHS.keysPage, 'Back to keys', 'Key not published')), { body: PlainForm })
    .post(ADMIN_PATHS.keysRevoke, ({ request, body }) => pageOrError(ADMIN_PATHS.keysRevoke, async () => {
      await ownerForm(request, body.csrf)
      return submitKeyRevoke(deps, body)
    }, backTo(ADMIN_PATHS.keysPage, 'Back to keys')), { body: PlainForm })
    .get(ADMIN_PATHS.profile, ({ request, query }) => ownerPage(ADMIN_PATHS.profile, request, () => showProfilePage(deps, cookieOf(request), query)))
    .post(ADMIN_PATHS.profile, ({ request, body }) => pageOrError(ADMIN_PATHS.profile, async () => {
      await ownerForm(request, body.csrf)
      const changed = await saveProfile(deps, ldp, request, body)
      return seeOther(`${ADMIN_PATHS.profile}?done=${changed ? 'saved' : 'unchanged'}`)
    }, backTo(ADMIN_PATHS.profile, 'Back to your profile')), { body: PlainForm })
    .post(ADMIN_PATHS.profilePicture, ({ request }) => pageOrError(ADMIN_PATHS.profilePicture, async () => {
      await uploadProfilePicture(deps, ldp, request, uploadFormParts(request), async (csrf) => { await ownerForm(request, csrf) })
      return seeOther(`${ADMIN_PATHS.profile}?done=picture`)
    }, backTo(ADMIN_PATHS.profile, 'Back to your profile', 'Picture not changed')), { parse: 'none' })
    .post(ADMIN_PATHS.password, ({ request, body }) => pageOrError(ADMIN_PATHS.password, async () => {
      const session = await ownerForm(request, body.csrf)
      try {
        const { loginsEnded } = await changeOwnerPassword(session, body)
        return seeOther(`${ADMIN_PATHS.profile}?done=password&ended=${loginsEnded}`)
      } catch (err) {
        // A wrong current password, a weak or mistyped new one: the form again, the problem at its field
        const problem = passwordProblemOf(err)
        if (!problem) throw err
        return showProfilePage(deps, cookieOf(request), {}, problem)
      }
    }, backTo(ADMIN_PATHS.profile, 'Back to your profile', 'Password not changed')), { body: PlainForm })
}

/**
 * The owner's JSON API under /.admin/api, every route behind the owner guard. It answers in JSON, refusals
 * too: `{ error, error_description }`, with `violations` (RFC 6901 pointers) where a body was refused.
 */
function ownerApi(deps: Deps, ldp: CookieLdp, backups: ReturnType<typeof makeBackups>, changeOwnerPassword: ReturnType<typeof makePasswordChange>) {
  const { cfg, grants, decider } = deps
  return new Elysia({ name: 'admin-api' })
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toJsonResponse))
    .guard({}, (api) => api
      .resolve(async ({ request }) => ({ owner: await requireOwner(deps, request) }))
      .get(`${API}/csrf`, ({ request }) => {
        const { token, setCookie } = csrfTokenFor(request.headers.get('cookie'), cfg.baseUrl)
        const res = jsonResponse({ token })
        if (setCookie) res.headers.append('set-cookie', setCookie)
        return res
      })
      .get(`${API}/sessions`, async ({ owner }) => jsonResponse(await readSessions(deps, owner)))
      .get(`${API}/people`, async () => jsonResponse(await readPeople(deps)))
      .delete(`${API}/sessions/:id`, async ({ params }) => {
        if (!await revokeSession(deps, params.id)) throw notFound('session')
        return new Response(null, { status: 204 })
      })
      .get(ADMIN_PATHS.channels, async () => jsonResponse(await readChannels(deps)))
      .delete(`${ADMIN_PATHS.channels}/:id`, ({ params }) => {
        if (!endChannel(deps, params.id)) throw notFound('open subscription')
        return new Response(null, { status: 204 })
      })
      .get(`${API}/browse`, async ({ query }) => jsonResponse(await browseContainer(deps, query)))
      .get(`${API}/acl`, async ({ query }) => jsonResponse(await readAclView(deps, query)))
      .get(`${API}/profile`, async () => jsonResponse(await readProfile(deps)))
      .get(`${API}/backup`, async () => jsonResponse(await backups.lastBackup()))
      .get(`${API}/status`, async () => jsonResponse(await readPodStatus(deps)))
      .post(`${API}/profile`, async ({ request, body }) => {
        const fields = (body as { fields?: unknown } | null)?.fields
        if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new HttpError(400, 'invalid_request', 'expected a JSON body {"fields": {"name": "…", …}}')
        const changed = await saveProfile(deps, ldp, request, fields as Record<string, unknown>)
        return jsonResponse({ changed, profile: await readProfile(deps) })
      }, { body: t.Unknown() })
      // The picture's bytes as the body, its type as Content-Type; a body said to be too large is refused unread
      .post(`${API}/profile/picture`, async ({ request }) => {
        checkPictureLength(request.headers.get('content-length'))
        const picture = await setProfilePicture(deps, ldp, request, request.headers.get('content-type') ?? '', await readPicture(request.body))
        return jsonResponse({ picture, profile: await readProfile(deps) })
      }, { parse: 'none' })
      .post(`${API}/password`, async ({ owner, body }) => {
        if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'invalid_request', 'expected a JSON body {"current": "…", "password": "…", "confirm": "…"}')
        return jsonResponse(await changeOwnerPassword(owner, body as Record<string, unknown>))
      }, { body: t.Unknown() })
      // Rename and move: one atomic step, ACLs and everything inside a folder carried along
      .post(ADMIN_PATHS.moveApi, async ({ body }) => {
        const { from, to } = moveBody(body)
        return jsonResponse(await moveFiles(deps, from, to))
      }, { body: t.Unknown() })
      // A folder with everything in it: the count the confirmation names, then the delete of exactly that many
      .get(ADMIN_PATHS.treeCount, async ({ query }) => jsonResponse(await countFolder(deps, query.path)))
      .delete(ADMIN_PATHS.tree, async ({ query }) => jsonResponse(await deleteFolder(deps, query.path, query.count)))
      // The trash: the dashboard's Delete keeps what it deleted 30 days (store/trash.ts)
      .get(ADMIN_PATHS.trash, async () => jsonResponse(await listTrash(deps)))
      .post(ADMIN_PATHS.trash, async ({ body }) => jsonResponse(await moveToTrash(deps, body)), { body: t.Unknown() })
      .post(`${ADMIN_PATHS.trash}/:id/restore`, async ({ params }) => jsonResponse(await restoreTrashed(deps, params.id)))
      .post(`${API}/check-rdf`, async ({ body }) => jsonResponse(await checkRdf(body)), { body: t.Unknown() })
      .get(`${API}/consents`, async () => jsonResponse(await readConsents(deps)))
      .delete(`${API}/consents/:clientId`, async ({ params }) => {
        if (!await revokeClientAccess(deps, params.clientId)) throw notFound('consent or session for a client')
        return new Response(null, { status: 204 })
      })
      .put(ADMIN_PATHS.appAccessApi, async ({ query, body }) => jsonResponse(await putAppAccess(deps, query.client_id, body)), { body: t.Unknown() })
      .get(`${API}/clients`, async () => jsonResponse(await readClients(deps)))
      .post(`${API}/clients`, async ({ body }) => jsonResponse(await createStaticClient(deps, body), { status: 201 }), { body: t.Unknown() })
      .delete(`${API}/clients/:clientId`, async ({ params }) => {
        if (!await deleteClient(deps, params.clientId)) throw notFound('client')
        return new Response(null, { status: 204 })
      })
      // The OP's signing key: new tokens use a new key; the old public key stays in the JWKS until its tokens expired
      .post(`${API}/signing-keys/rotate`, async () => {
        const kid = await deps.signingKeys.rotate(deps.now())
        log.info('admin.signing_key_rotated', { kid })
        return jsonResponse({ kid }, { status: 201 })
      })
      // Access grants: refusals name the offending fields (`violations`)
      .post(ADMIN_PATHS.grants, async ({ request }) =>
        createGrant(deps, grants, request.headers.get('content-type'), await request.text()), { parse: 'none' })
      .get(ADMIN_PATHS.grants, ({ query }) => listGrants(grants, query), { query: GrantQuery })
      .get(`${ADMIN_PATHS.grants}/:id`, ({ params, request }) => readGrant(grants, params.id, request.headers.get('accept')))
      .delete(`${ADMIN_PATHS.grants}/:id`, ({ params }) => revokeGrant(grants, params.id))
      // HttpSig keys made in the browser: only public JWKs arrive here
      .post(ADMIN_PATHS.keys, async ({ request }) =>
        createKey(deps, request.headers.get('content-type'), await request.text()), { parse: 'none' })
      .get(ADMIN_PATHS.keys, () => listKeys(deps))
      .delete(`${ADMIN_PATHS.keys}/:name`, ({ params }) => revokeKey(deps, params.name))
      .get(ADMIN_PATHS.access, async ({ query }) => jsonResponse(await explainAccess(deps, decider, query)), { query: AccessQuery })
      .get(ADMIN_PATHS.webidCheck, async ({ query }) => jsonResponse(await checkWebId(deps, query.webid ?? '')), { query: t.Object({ webid: t.Optional(t.String()) }) }))
}
