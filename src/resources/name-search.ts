// Search by name across the pod: the store's name index (store/name-index.ts) read for whoever controls the pod.

import { HttpError } from '../http/errors.ts'
import { findNames, foldedWords } from '../store/name-index.ts'
import { getMeta } from '../store/resources.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import type { Acting, ResourcesDeps } from './acting.ts'
import { controlOfRoot } from './trash-listing.ts'

/** Characters of a query, at most: a name is rarely longer, and a longer query is a mistake (or a probe). */
export const SEARCH_MAX_CHARS = 200

export interface NameSearchResult {
  /** The resources found, with their metadata, in the index's order (word, then path). */
  readonly items: { path: string; meta: ResourceMeta }[]
  /** More may match: the owner narrows the query. */
  readonly more: boolean
}

/**
 * Control of the pod's root, as the trash: the index names every resource of the pod, whoever may read it, so it
 * is answered to whoever may give themselves every mode anyway (the owner). A query with no letter or digit, or
 * longer than SEARCH_MAX_CHARS, is refused before the index is read.
 */
export function makeNameSearch(deps: ResourcesDeps) {
  return async function findByName(who: Acting, query: string, limit: number): Promise<NameSearchResult> {
    if ([...query].length > SEARCH_MAX_CHARS) throw new HttpError(400, 'invalid_search', `a search may be at most ${SEARCH_MAX_CHARS} characters long`)
    if (foldedWords(query).length === 0) throw new HttpError(400, 'invalid_search', 'type at least one letter or digit of a name to search for')
    await controlOfRoot(deps, who)
    const found = await findNames(deps.store, query, limit)
    const metas = await Promise.all(found.paths.map(p => getMeta(deps.store, p)))
    return { items: found.paths.flatMap((path, i) => (metas[i] ? [{ path, meta: metas[i] }] : [])), more: found.more }
  }
}
