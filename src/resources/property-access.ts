// A change to a resource's properties (WebDAV PROPPATCH, RFC 4918 §9.2) needs what a PUT replacing it needs:
// Write on it (Control for an ACL), decided before its existence is told.

import { HttpError } from '../http/errors.ts'
import { getMeta } from '../store/resources.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { requiredModes } from '../policy/modes.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'

/**
 * Write on `path`, which every write there needs, whether it creates or replaces: decided before anything about
 * the path is told (a WebDAV COPY or MOVE's destination: whether it exists, its parent is missing, or is locked).
 */
export function makeAdmitWriteAt(deps: ResourcesDeps) {
  return async (who: Acting, path: string): Promise<void> => {
    await decide(deps, who, path, requiredModes({ method: 'PUT', url: deps.cfg.baseUrl + path, exists: true }))
  }
}

export function makeAdmitPropertyChange(deps: ResourcesDeps) {
  const admitWriteAt = makeAdmitWriteAt(deps)
  return async function admitPropertyChange(who: Acting, path: string): Promise<ResourceMeta> {
    await admitWriteAt(who, path)
    const meta = await getMeta(deps.store, path)
    if (!meta) throw new HttpError(404, 'not_found', `${path} does not exist`)
    return meta
  }
}
