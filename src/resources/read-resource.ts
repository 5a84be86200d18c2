// GET and HEAD: Read decided before anything about the target is told (WAC: no 404/403 oracle), then what is
// stored. The representation as HTTP (content negotiation, 304s, ranges, listings) is `represent` (representation.ts).

import { HttpError } from '../http/errors.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import { getMeta } from '../store/resources.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { requiredModes } from '../policy/modes.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'

/** A resource the principal may read: what is stored of it, and what the principal and the public may do there. */
export interface Readable {
  readonly meta: ResourceMeta
  /** `WAC-Allow` of the target for the principal (WAC §6.5). */
  readonly wacAllow: string
  /** The public may read it too: a copy kept by a shared cache would tell nobody anything new. */
  readonly publicRead: boolean
}

export function makeReadResource(deps: ResourcesDeps) {
  return async function read(who: Acting, path: string): Promise<Readable> {
    const decision = await decide(deps, who, path, requiredModes({ method: 'GET', url: deps.cfg.baseUrl + path, exists: true }))
    // Existence is only revealed after Read was granted; the pod's own endpoints are never pod resources.
    const meta = isReservedPath(path) ? undefined : await getMeta(deps.store, path)
    if (!meta) throw new HttpError(404, 'not_found', `${path} does not exist`, { headers: { 'wac-allow': decision.wacAllow } })
    return { meta, wacAllow: decision.wacAllow, publicRead: decision.public.has('read') }
  }
}
