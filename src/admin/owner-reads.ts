// What the owner's pages ask of a resource before they offer something for it — is there one, and what kind —
// read through the operations layer as the owner (Read decided like any read, ownerActing).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { ownerActing } from './owner-acting.ts'

/** What is stored at `path` as the owner reads it, or undefined where nothing is (the layer's 404); a refusal is thrown. */
export async function metaAsOwner(deps: Pick<Deps, 'cfg' | 'resources'>, path: string): Promise<ResourceMeta | undefined> {
  try {
    return (await deps.resources.read(ownerActing(deps.cfg.baseUrl), path)).meta
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) return undefined
    throw err
  }
}
