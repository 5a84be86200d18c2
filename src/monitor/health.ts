// GET /.well-known/solopod/health: 200 while the database is open and takes a synced write, 503 otherwise.
// Public (a load balancer or uptime checker asks without credentials), so it says nothing but that.

import type { Store } from '../store/open-store.ts'
import { probeWritable } from '../store/health-probe.ts'
import { jsonResponse } from '../http/json-response.ts'
import { describeCause, log } from '../log.ts'

/** A synced write costs a disk flush: strangers asking in a loop share one probe a second. */
const PROBE_EVERY_MS = 1000

export function makeHealthCheck(store: Store, now: () => number): () => Promise<Response> {
  let last: { at: number; healthy: Promise<boolean> } | undefined
  const probe = (at: number) =>
    probeWritable(store, at).then(
      () => true,
      (err: unknown) => {
        log.warn('health.store_unwritable', { cause: describeCause(err) })
        return false
      },
    )
  return async () => {
    const at = now()
    if (!last || at - last.at >= PROBE_EVERY_MS) last = { at, healthy: probe(at) }
    const healthy = await last.healthy
    return jsonResponse({ status: healthy ? 'ok' : 'unavailable' }, { status: healthy ? 200 : 503 })
  }
}
