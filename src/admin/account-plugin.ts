// The owner's account: the profile (fields, picture), the password, the HttpSig keys, the backup; pages and
// JSON API, and the API's CSRF token.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { jsonResponse } from '../http/json-response.ts'
import { csrfTokenFor } from '../http/csrf.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { uploadFormParts } from '../http/upload-form.ts'
import { ownerGuard } from './owner-guard.ts'
import { backTo, seeOther } from './owner-page.ts'
import { CsrfForm, PlainForm } from './model.ts'
import { passwordProblemOf, showBackupPage, showProfilePage } from './account-pages.ts'
import { readProfile, saveProfile } from './profile.ts'
import { checkPictureLength, readPicture, setProfilePicture, uploadProfilePicture } from './profile-picture.ts'
import { makePasswordChange } from './change-password.ts'
import { makeBackups } from './backup.ts'
import { createKey, listKeys, revokeKey } from './keys.ts'
import { showKeysPage, submitKeyForm, submitKeyRevoke } from './keys-page.ts'

const API = ADMIN_PATHS.api
const TO_PROFILE = backTo(ADMIN_PATHS.profile, 'Back to your profile')

export function accountPlugin(deps: Deps) {
  const backups = makeBackups(deps)
  const changeOwnerPassword = makePasswordChange(deps)
  const cookieOf = (request: Request) => request.headers.get('cookie')
  return (
    new Elysia({ name: 'admin-account' })
      .use(ownerGuard(deps))
      .get(ADMIN_PATHS.profile, ({ request, query }) => showProfilePage(deps, cookieOf(request), query), { ownerPage: { returnTo: ADMIN_PATHS.profile } })
      .post(
        ADMIN_PATHS.profile,
        async ({ body }) => {
          const changed = await saveProfile(deps, body)
          return seeOther(`${ADMIN_PATHS.profile}?done=${changed ? 'saved' : 'unchanged'}`)
        },
        { body: PlainForm, ownerForm: { next: TO_PROFILE } },
      )
      .post(
        ADMIN_PATHS.profilePicture,
        async ({ request, checkCsrf }) => {
          await uploadProfilePicture(deps, uploadFormParts(request), checkCsrf)
          return seeOther(`${ADMIN_PATHS.profile}?done=picture`)
        },
        { parse: 'none', ownerUpload: { next: backTo(ADMIN_PATHS.profile, 'Back to your profile', 'Picture not changed') } },
      )
      .post(
        ADMIN_PATHS.password,
        async ({ request, body, owner }) => {
          try {
            const { loginsEnded } = await changeOwnerPassword(owner, body)
            return seeOther(`${ADMIN_PATHS.profile}?done=password&ended=${loginsEnded}`)
          } catch (err) {
            // A wrong current password, a weak or mistyped new one: the form again, the problem at its field
            const problem = passwordProblemOf(err)
            if (!problem) throw err
            return showProfilePage(deps, cookieOf(request), {}, problem)
          }
        },
        { body: PlainForm, ownerForm: { next: backTo(ADMIN_PATHS.profile, 'Back to your profile', 'Password not changed') } },
      )
      // HttpSig keys: the page's forms call the API's own functions
      .get(ADMIN_PATHS.keysPage, ({ request, query }) => showKeysPage(deps, cookieOf(request), query.done), { ownerPage: { returnTo: ADMIN_PATHS.keysPage } })
      .post(ADMIN_PATHS.keysPage, ({ body }) => submitKeyForm(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.keysPage, 'Back to keys', 'Key not published') },
      })
      .post(ADMIN_PATHS.keysRevoke, ({ body }) => submitKeyRevoke(deps, body), {
        body: PlainForm,
        ownerForm: { next: backTo(ADMIN_PATHS.keysPage, 'Back to keys') },
      })
      // A plain form post (works without JavaScript); the answer is the archive, or an error page
      .post(ADMIN_PATHS.backup, () => backups.download(), { body: CsrfForm, ownerForm: { next: backTo(ADMIN_PATHS.backup, 'Back to Backup') } })
      .get(ADMIN_PATHS.backup, ({ request }) => showBackupPage(deps, cookieOf(request)), { ownerPage: { returnTo: ADMIN_PATHS.backup } })
      .guard({ ownerApi: true }, api =>
        api
          .get(`${API}/csrf`, ({ request }) => {
            const { token, setCookie } = csrfTokenFor(request.headers.get('cookie'), deps.cfg.baseUrl)
            const res = jsonResponse({ token })
            if (setCookie) res.headers.append('set-cookie', setCookie)
            return res
          })
          .get(`${API}/profile`, async () => jsonResponse(await readProfile(deps)))
          .post(
            `${API}/profile`,
            async ({ body }) => {
              const fields = (body as { fields?: unknown } | null)?.fields
              if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
                throw new HttpError(400, 'invalid_request', 'expected a JSON body {"fields": {"name": "…", …}}')
              const changed = await saveProfile(deps, fields as Record<string, unknown>)
              return jsonResponse({ changed, profile: await readProfile(deps) })
            },
            { body: t.Unknown() },
          )
          // The picture's bytes as the body, its type as Content-Type; a body said to be too large is refused unread
          .post(
            `${API}/profile/picture`,
            async ({ request }) => {
              checkPictureLength(request.headers.get('content-length'))
              const picture = await setProfilePicture(deps, request.headers.get('content-type') ?? '', await readPicture(request.body))
              return jsonResponse({ picture, profile: await readProfile(deps) })
            },
            { parse: 'none' },
          )
          .post(
            `${API}/password`,
            async ({ owner, body }) => {
              if (typeof body !== 'object' || body === null || Array.isArray(body))
                throw new HttpError(400, 'invalid_request', 'expected a JSON body {"current": "…", "password": "…", "confirm": "…"}')
              return jsonResponse(await changeOwnerPassword(owner, body as Record<string, unknown>))
            },
            { body: t.Unknown() },
          )
          .get(`${API}/backup`, async () => jsonResponse(await backups.lastBackup()))
          // HttpSig keys made in the browser: only public JWKs arrive here
          .post(ADMIN_PATHS.keys, async ({ request }) => createKey(deps, request.headers.get('content-type'), await request.text()), { parse: 'none' })
          .get(ADMIN_PATHS.keys, () => listKeys(deps))
          .delete(`${ADMIN_PATHS.keys}/:name`, ({ params }) => revokeKey(deps, params.name)),
      )
  )
}
