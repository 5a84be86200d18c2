// The pod's status for its owner: the page and its JSON (version, uptime, disk, the certificate, the last backup).

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { jsonResponse } from '../http/json-response.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { ownerGuard } from './owner-guard.ts'
import { showStatusPage } from './account-pages.ts'
import { readPodStatus } from './pod-status.ts'

export function statusPlugin(deps: Deps) {
  return new Elysia({ name: 'admin-status' })
    .use(ownerGuard(deps))
    .get(ADMIN_PATHS.status, ({ request }) => showStatusPage(deps, request.headers.get('cookie')), { ownerPage: { returnTo: ADMIN_PATHS.status } })
    .get(`${ADMIN_PATHS.api}/status`, async () => jsonResponse(await readPodStatus(deps)), { ownerApi: true })
}
