// Undo any change (issue 36): the Activity page (the pod's recent changes, what was deleted), one resource's or one
// folder's history, a kept state shown and downloaded, and their restores — as pages with forms and as the owner
// API. Every read and write goes through the operations layer as the owner (resources/version-activity.ts).

import { Elysia, t } from 'elysia'
import type { Deps } from '../deps.ts'
import { jsonResponse } from '../http/json-response.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { ownerGuard, type NextOf } from './owner-guard.ts'
import { backTo } from './owner-page.ts'
import { PlainForm, fieldOf } from './model.ts'
import { showActivityPage } from './activity-page.ts'
import { downloadVersion, showHistoryPage, showVersionPage, submitRestoreFolder, submitRestoreVersion } from './history-page.ts'
import { historyPage } from './activity-page.ts'
import { restoreFolder, restoreVersion } from './restore-version.ts'

const ACTIVITY = backTo(ADMIN_PATHS.activity, 'Activity')
const FROM_ACTIVITY = { returnTo: ADMIN_PATHS.activity, next: ACTIVITY }
// A refusal of a restore leads back to the history it was pressed on
const backToHistory: NextOf = ({ form, query }) => {
  const path = fieldOf(form, 'path') ?? query.path
  return path ? backTo(historyPage(path), 'Back to the history', 'Nothing restored') : ACTIVITY
}
const Query = t.Record(t.String(), t.String())

export function activityPlugin(deps: Deps) {
  const cookieOf = (request: Request) => request.headers.get('cookie')
  return new Elysia({ name: 'admin-activity' })
    .use(ownerGuard(deps))
    .get(ADMIN_PATHS.activity, ({ request, query }) => showActivityPage(deps, cookieOf(request), query), { query: Query, ownerPage: FROM_ACTIVITY })
    .get(ADMIN_PATHS.history, ({ request, query }) => showHistoryPage(deps, cookieOf(request), query), {
      query: Query,
      ownerPage: { returnTo: ADMIN_PATHS.activity, next: backToHistory },
    })
    .get(ADMIN_PATHS.historyVersion, ({ request, query }) => showVersionPage(deps, cookieOf(request), query), {
      query: Query,
      ownerPage: { returnTo: ADMIN_PATHS.activity, next: backToHistory },
    })
    .get(ADMIN_PATHS.historyDownload, ({ query }) => downloadVersion(deps, query), {
      query: Query,
      ownerPage: { returnTo: ADMIN_PATHS.activity, next: backToHistory },
    })
    .post(ADMIN_PATHS.historyRestore, ({ body }) => submitRestoreVersion(deps, body), { body: PlainForm, ownerForm: { next: backToHistory } })
    .post(ADMIN_PATHS.historyRestoreFolder, ({ body }) => submitRestoreFolder(deps, body), { body: PlainForm, ownerForm: { next: backToHistory } })
    .guard({ ownerApi: true }, api =>
      api
        // Undo any change: the state a resource had at a time, written back (itself a change, kept as a version)
        .post(ADMIN_PATHS.restoreVersion, async ({ body }) => jsonResponse(await restoreVersion(deps, body)), { body: t.Unknown() })
        // A folder as it was at a time: each resource that existed then, its state of then
        .post(ADMIN_PATHS.restoreFolder, async ({ body }) => jsonResponse(await restoreFolder(deps, body)), { body: t.Unknown() }),
    )
}
