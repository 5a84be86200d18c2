// Who may use /.admin: the owner's login session (cookie), and only from the pod's own pages. One guard,
// `ownerGuard`, protects every owner route group, each in the refusal format of its kind.

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toJsonResponse } from '../http/errors.ts'
import { checkCsrf, checkSameOrigin } from '../http/csrf.ts'
import { errorPage, type NextSteps } from '../http/html-page.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { getLoginSession, type LoginSession } from '../account/owner-session.ts'
import { getOwnerAccount } from '../account/owner-account.ts'
import { OP_PATHS, loginPageFor } from '../http/pod-paths.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store' | 'now'>

/** A form's fields as a page route receives them: a repeated name arrives as an array. */
export type FormFields = Partial<Record<string, string | string[]>>

/** Where a page's refusal leads back to: fixed links, or links made from the form or query that was sent. */
export type NextOf = NextSteps | ((sent: { form: FormFields; query: Record<string, string | undefined>; request: Request }) => NextSteps)

/** The session of the request's cookie, if any (pages redirect to the login page without one). */
export const findOwnerSession = (deps: AdminDeps, request: Request) => getLoginSession(deps.store, deps.cfg.baseUrl, request.headers.get('cookie'), deps.now())

/**
 * The owner API: a session cookie, an Origin that is ours when a browser sends one (our CORS
 * answers every origin, so a same-site page could otherwise read this API), and for changes the
 * CSRF token in `X-CSRF-Token` (double submit; GET /.admin/api/csrf hands it out).
 */
export async function requireOwner(deps: AdminDeps, request: Request): Promise<LoginSession> {
  const origin = request.headers.get('origin')
  checkSameOrigin(origin, deps.cfg.baseUrl)
  const session = await findOwnerSession(deps, request)
  if (!session) throw await loginRequired(deps)
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    checkCsrf({ cookieHeader: request.headers.get('cookie'), sent: request.headers.get('x-csrf-token'), origin, baseUrl: deps.cfg.baseUrl })
  }
  return session
}

/** A form post of the owner's pages: the owner's session, then the CSRF token it carries and its Origin. */
async function requireOwnerForm(deps: AdminDeps, request: Request): Promise<LoginSession> {
  const session = await findOwnerSession(deps, request)
  if (!session) throw new HttpError(401, 'login_required', 'sign in as the owner first')
  return session
}

const checkFormCsrf = (deps: AdminDeps, request: Request, sent: unknown) =>
  checkCsrf({ cookieHeader: request.headers.get('cookie'), sent, origin: request.headers.get('origin'), baseUrl: deps.cfg.baseUrl })

/** Before the first password there is no way to sign in: say how to set one instead. */
async function loginRequired(deps: AdminDeps): Promise<HttpError> {
  if (!(await getOwnerAccount(deps.store))?.passwordHash) {
    return new HttpError(
      401,
      'login_required',
      'no owner password is set yet; open the setup link the server printed at start, ' +
        "or run solopod setup-link with the server's --data directory on the machine that runs it",
    )
  }
  return new HttpError(401, 'login_required', `sign in as the owner first at ${deps.cfg.baseUrl}${OP_PATHS.login}`)
}

interface ErrorFacts {
  code: string | number
  error: unknown
  request: Request
  body: unknown
  query: unknown
}

/**
 * A page route's refusal is the error page: a refusal of the guard or the handler leads back where the
 * route says; a form Elysia's schema refused, or a failure, gets the generic links.
 */
const pageRefusal =
  (next?: NextOf) =>
  ({ code, error, request, body, query }: ErrorFacts) =>
    renderError(request, fromFramework(code, error), err =>
      errorPage(
        err,
        error instanceof HttpError ? nextSteps(next, (body ?? {}) as FormFields, (query ?? {}) as Record<string, string | undefined>, request) : undefined,
      ),
    )

const nextSteps = (next: NextOf | undefined, form: FormFields, query: Record<string, string | undefined>, request: Request) =>
  typeof next === 'function' ? next({ form, query, request }) : next

/**
 * The one guard of the owner's routes, as route options (Elysia macros) that give the handler the owner's
 * session (`owner`):
 * - `ownerPage`: a page; signed out, 303 to the login page that comes back to `returnTo`.
 * - `ownerForm`: a form post; signed out 401 `login_required`, then the CSRF field `csrf` and the Origin.
 * - `ownerUpload`: a multipart form read as it arrives: the session first, the CSRF field when it arrives
 *   (`checkCsrf`, which the handler calls).
 * - `ownerApi`: the JSON API (`requireOwner`), refusals as `{ error, error_description }`.
 * The page kinds answer refusals with the error page, leading back where `next` says.
 */
export function ownerGuard(deps: AdminDeps) {
  return new Elysia({ name: 'admin-owner-guard' }).macro({
    ownerPage: (page: { returnTo: string; next?: NextOf }) => ({
      async resolve({ request, set, status }) {
        const owner = await findOwnerSession(deps, request)
        if (!owner) {
          set.headers.location = deps.cfg.baseUrl + loginPageFor(page.returnTo)
          return status(303, '')
        }
        return { owner }
      },
      error: pageRefusal(page.next),
    }),
    ownerForm: (form: { next?: NextOf }) => ({
      async resolve({ request, body }) {
        const owner = await requireOwnerForm(deps, request)
        checkFormCsrf(deps, request, (body as FormFields | undefined)?.csrf)
        return { owner }
      },
      error: pageRefusal(form.next),
    }),
    ownerUpload: (form: { next?: NextOf }) => ({
      async resolve({ request }) {
        const owner = await requireOwnerForm(deps, request)
        return {
          owner,
          checkCsrf: async (sent: string | undefined) => {
            checkFormCsrf(deps, request, sent)
          },
        }
      },
      error: pageRefusal(form.next),
    }),
    ownerApi: {
      async resolve({ request }) {
        return { owner: await requireOwner(deps, request) }
      },
      error: ({ code, error, request }) => renderError(request, fromFramework(code, error), toJsonResponse),
    },
  })
}
