// Routes of the owner's client credentials (scripts and bots): the JSON API under /.admin/api/credentials and
// the dashboard's page with its two forms, behind the owner guard.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { jsonResponse } from '../http/json-response.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { ownerGuard } from './owner-guard.ts'
import { backTo, seeOther } from './owner-page.ts'
import { ListForm } from './model.ts'
import { createCredential, readCredentials, removeCredential } from './credentials.ts'
import { addCredentialFromForm, showCredentialsPage } from './credentials-page.ts'

const notFound = () => new HttpError(404, 'not_found', 'there is no client credential with this id')

export function credentialsPlugin(deps: Deps) {
  const API = ADMIN_PATHS.credentials
  const PAGE = ADMIN_PATHS.credentialsPage
  const back = backTo(PAGE, 'Back to scripts and bots')
  return new Elysia({ name: 'admin-credentials' })
    .use(ownerGuard(deps))
    .get(PAGE, ({ request, query }) => showCredentialsPage(deps, request.headers.get('cookie'), { done: query.done }), {
      query: t.Object({ done: t.Optional(t.String()) }),
      ownerPage: { returnTo: PAGE, next: back },
    })
    .post(ADMIN_PATHS.credentialsAdd, ({ request, body }) => addCredentialFromForm(deps, request.headers.get('cookie'), body), {
      body: ListForm,
      ownerForm: { next: back },
    })
    .post(
      ADMIN_PATHS.credentialsRemove,
      async ({ body }) => {
        if (typeof body.id !== 'string' || !(await removeCredential(deps, body.id))) throw notFound()
        return seeOther(`${PAGE}?done=removed`)
      },
      { body: ListForm, ownerForm: { next: back } },
    )
    .guard({ ownerApi: true }, api =>
      api
        .get(API, async () => jsonResponse(await readCredentials(deps)))
        .post(API, async ({ body }) => jsonResponse(await createCredential(deps, body), { status: 201 }), { body: t.Unknown() })
        .delete(`${API}/:id`, async ({ params }) => {
          if (!(await removeCredential(deps, params.id))) throw notFound()
          return new Response(null, { status: 204 })
        }),
    )
}
