// The owner's pages and JSON API under /.admin, composed from one plugin per concern — files, sharing, apps
// and sessions, scripts and bots, the account, the pod's status — each behind the one owner guard
// (owner-guard.ts); and the few public routes: the password setup, the grant schema, the dashboard's script.

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { errorPage, pageOrError } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { SETUP_NEXT, makeSetup } from './setup.ts'
import { grantSchemaResponse } from './grants.ts'
import { dashboardScript } from './dashboard.ts'
import { filesPlugin } from './files-plugin.ts'
import { sharingPlugin } from './sharing-plugin.ts'
import { appsPlugin } from './apps-plugin.ts'
import { credentialsPlugin } from './credentials-routes.ts'
import { accountPlugin } from './account-plugin.ts'
import { statusPlugin } from './status-plugin.ts'
import { activityPlugin } from './activity-plugin.ts'

const SETUP_PATH = ADMIN_PATHS.setup
const SetupForm = t.Object({ csrf: t.Optional(t.String()), token: t.Optional(t.String()), password: t.Optional(t.String()), confirm: t.Optional(t.String()) })

/** The owner's pages act through the operations layer (`deps.resources`) as the owner: no request to the pod itself. */
export function adminPlugin(deps: Deps) {
  return new Elysia({ name: 'admin' })
    .use(publicRoutes(deps))
    .use(filesPlugin(deps))
    .use(sharingPlugin(deps))
    .use(appsPlugin(deps))
    .use(credentialsPlugin(deps))
    .use(accountPlugin(deps))
    .use(statusPlugin(deps))
    .use(activityPlugin(deps))
}

/** Before the owner has a password, and what needs none: their refusals are error pages too. */
function publicRoutes(deps: Deps) {
  const setup = makeSetup(deps)
  return (
    new Elysia({ name: 'admin-public' })
      .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), err => errorPage(err)))
      // Clients validate a grant before they send it
      .get(ADMIN_PATHS.grantSchema, () => grantSchemaResponse())
      .get(ADMIN_PATHS.dashboardScript, ({ request }) => dashboardScript(request))
      .get(SETUP_PATH, ({ request, query }) => pageOrError(SETUP_PATH, () => setup.showSetup(query.token, request.headers.get('cookie')), SETUP_NEXT), {
        query: t.Object({ token: t.Optional(t.String()) }),
      })
      .post(
        SETUP_PATH,
        ({ request, body }) => pageOrError(SETUP_PATH, () => setup.submitSetup(body, request.headers.get('cookie'), request.headers.get('origin')), SETUP_NEXT),
        { body: SetupForm },
      )
  )
}
