// What the owner's pages read of a resource, through the operations layer as the owner (Read decided like any
// read): whether there is one and what kind, and its bytes the way the resource server answers a GET (content
// negotiation, ranges), so a page shows exactly what an app would get.

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

/** What the owner's read of one resource gives: its representations, from one decision of the layer. */
export interface OwnerRead {
  /** What the store holds of it (kind, stored type and size), as the decision read it. */
  readonly meta: ResourceMeta
  /** The representation's type and length as a HEAD answers them: no body, no bytes read. */
  head(accept: string): Promise<Response>
  /** The representation `accept` asks for; `requestHeaders`: only what the page passes on (a Range, an If-Range). */
  get(accept: string, requestHeaders?: Headers): Promise<Response>
}

/**
 * Read on `path` decided once as the owner, then its representations the way the resource server answers a GET or
 * a HEAD (content negotiation, ranges): a page learns the type and size first and reads only the bytes it shows.
 */
export async function openAsOwner(deps: Pick<Deps, 'cfg' | 'resources'>, path: string): Promise<OwnerRead> {
  const readable = await deps.resources.read(ownerActing(deps.cfg.baseUrl), path)
  const represent = (accept: string, head: boolean, requestHeaders: Headers) =>
    deps.resources.represent(path, readable, { accept, requestUrl: deps.cfg.baseUrl + path, requestHeaders, head, headers: new Headers() })
  return {
    meta: readable.meta,
    head: accept => represent(accept, true, new Headers()),
    get: (accept, requestHeaders = new Headers()) => represent(accept, false, requestHeaders),
  }
}

/**
 * The representation of `path` that `accept` asks for. `requestHeaders`: only what the page passes on from the
 * browser (a preview's Range and If-Range); never its cache validators, so the answer is never a 304.
 */
export async function readAsOwner(deps: Pick<Deps, 'cfg' | 'resources'>, path: string, accept: string, requestHeaders = new Headers()): Promise<Response> {
  return (await openAsOwner(deps, path)).get(accept, requestHeaders)
}
