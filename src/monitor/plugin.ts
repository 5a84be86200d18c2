// The monitoring role: the pod's health for anyone, its metrics for clients on its machine and the owner.

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { toPlainResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { MONITOR_PATHS } from '../http/pod-paths.ts'
import { makeHealthCheck } from './health.ts'
import { metricsResponse } from './metrics.ts'
import { checkMetricsAccess } from './metrics-access.ts'

export function monitorPlugin(deps: Deps) {
  const health = makeHealthCheck(deps.store, deps.now)
  return new Elysia({ name: 'monitor' })
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), toPlainResponse))
    .get(MONITOR_PATHS.health, () => health())
    .get(MONITOR_PATHS.metrics, async ({ request }) => {
      await checkMetricsAccess(deps, request)
      return metricsResponse(deps)
    })
}
