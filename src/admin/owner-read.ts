// A document's bytes as the owner's pages read them: through the operations layer, as the owner, the way the
// resource server answers a GET (content negotiation, ranges), so a page shows exactly what an app would get.

import type { Deps } from '../deps.ts'
import { ownerActing } from './owner-acting.ts'

/**
 * The representation of `path` that `accept` asks for. `requestHeaders`: only what the page passes on from the
 * browser (a preview's Range and If-Range); never its cache validators, so the answer is never a 304.
 */
export async function readAsOwner(deps: Pick<Deps, 'cfg' | 'resources'>, path: string, accept: string, requestHeaders = new Headers()): Promise<Response> {
  const readable = await deps.resources.read(ownerActing(deps.cfg.baseUrl), path)
  return deps.resources.represent(path, readable, { accept, requestUrl: deps.cfg.baseUrl + path, requestHeaders, head: false, headers: new Headers() })
}
