// GET /.well-known/solopod/health: 200 while the database is open and takes a synced write and the blob store
// answers, 503 otherwise. Public (a load balancer or uptime checker asks without credentials), so it says nothing
// but which of the two is wrong: `unavailable` (the database) or `blob_store_unavailable` (files' bytes: RDF works).

import type { Store } from '../store/open-store.ts'
import { probeWritable } from '../store/health-probe.ts'
import { jsonResponse } from '../http/json-response.ts'
import { describeCause, log } from '../log.ts'

/** A synced write costs a disk flush: strangers asking in a loop share one probe a second. */
const PROBE_EVERY_MS = 1000

type Health = 'ok' | 'unavailable' | 'blob_store_unavailable'

export function makeHealthCheck(store: Store, now: () => number): () => Promise<Response> {
  let last: { at: number; health: Promise<Health> } | undefined
  const probe = async (at: number): Promise<Health> => {
    try {
      await probeWritable(store, at)
    } catch (err) {
      log.warn('health.store_unwritable', { cause: describeCause(err) })
      return 'unavailable'
    }
    // The blob store shares its own answers once a second (and bounds their time) for this and the Pod status page.
    const problem = await store.blobs.problem()
    if (problem === undefined) return 'ok'
    log.warn('health.blob_store_unavailable', { problem })
    return 'blob_store_unavailable'
  }
  return async () => {
    const at = now()
    if (!last || at - last.at >= PROBE_EVERY_MS) last = { at, health: probe(at) }
    const status = await last.health
    return jsonResponse({ status }, { status: status === 'ok' ? 200 : 503 })
  }
}
