// The pod's access grants: stored as RDF (one named graph each, listed by a record), held in memory as
// the index decisions read, so a create or a revoke counts from the next request on.

import type { Quad } from '@rdfjs/types'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import type { Store } from '../store/open-store.ts'
import { readRecords } from '../store/records.ts'
import { deleteGraphWithRecord, putGraphWithRecord, readNamedGraph } from '../store/named-graphs.ts'
import { canonicalGrant, grantToQuads, quadsToGrant } from './grant-rdf.ts'
import { indexGrants, type GrantIndex, type StoredGrant } from './grants.ts'
import type { GrantData } from './grant-schema.ts'
import { makeSerialQueue } from '../lib/serial-queue.ts'

const KIND = 'grant'

/** Where grant documents live: `GET` answers JSON or RDF, `DELETE` revokes (owner only). */
const GRANTS_PATH = `${ADMIN_PATHS.grants}/`

export interface GrantEntry extends StoredGrant {
  readonly id: string
  readonly createdAt: number
}

export interface GrantFilter {
  readonly grantee?: string
  readonly registration?: string
}

export function makeGrantRegistry(deps: { store: Store; cfg: { baseUrl: string }; now: () => number }) {
  const { store } = deps
  const iriOf = (id: string) => `${deps.cfg.baseUrl}${GRANTS_PATH}${id}`
  let entries: Map<string, GrantEntry> | undefined
  let index: GrantIndex = indexGrants([])
  let loading: Promise<void> | undefined
  // Changes apply one at a time, so the index always reflects the store after the last acknowledged one.
  const serial = makeSerialQueue()

  async function load(): Promise<Map<string, GrantEntry>> {
    if (entries) return entries
    loading ??= (async () => {
      const found = new Map<string, GrantEntry>()
      for (const { key, value } of await readRecords<{ createdAt: number }>(store, KIND, deps.now())) {
        const data = quadsToGrant(await readNamedGraph(store, iriOf(key)), iriOf(key))
        if (data) found.set(key, { id: key, iri: iriOf(key), data, createdAt: value.createdAt })
      }
      entries = found
      index = indexGrants(found.values())
    })()
    // A failed load (a store error) is retried by the next caller instead of failing every decision forever
    await loading.catch((err: unknown) => {
      loading = undefined
      throw err
    })
    return entries!
  }

  const reindex = (all: Map<string, GrantEntry>) => {
    index = indexGrants(all.values())
  }

  return {
    iriOf,
    /** The index of every stored grant; loaded from the store on first use. */
    async index(): Promise<GrantIndex> {
      if (!entries) await load()
      return index
    },
    /** The index once loaded (every decision after the first), without an await. */
    loadedIndex: (): GrantIndex | undefined => (entries ? index : undefined),
    /** Stores a validated grant; the caller checked it (schema and meaning). */
    create(data: GrantData): Promise<GrantEntry> {
      return serial(async () => {
        const all = await load()
        const id = crypto.randomUUID()
        const entry: GrantEntry = { id, iri: iriOf(id), data: canonicalGrant(data), createdAt: deps.now() }
        await putGraphWithRecord(store, grantToQuads(entry.data, entry.iri), KIND, id, { createdAt: entry.createdAt })
        all.set(id, entry)
        reindex(all)
        return entry
      })
    },
    /** Deletes the grant with its inheriting grants; false when there is none with this id. */
    revoke(id: string): Promise<boolean> {
      return serial(async () => {
        const all = await load()
        if (!all.has(id)) return false
        await deleteGraphWithRecord(store, iriOf(id), KIND, id)
        all.delete(id)
        reindex(all)
        return true
      })
    },
    async get(id: string): Promise<GrantEntry | undefined> {
      return (await load()).get(id)
    },
    /** The grant's document as stored (quads in its named graph). */
    quadsOf: (id: string): Promise<Quad[]> => readNamedGraph(store, iriOf(id)),
    async list(filter: GrantFilter = {}): Promise<GrantEntry[]> {
      return [...(await load()).values()]
        .filter(e => filter.grantee === undefined || e.data.grantee === filter.grantee)
        .filter(e => filter.registration === undefined || mentionsRegistration(e.data, filter.registration))
        .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    },
  }
}

const mentionsRegistration = (g: GrantData, registration: string): boolean =>
  g.hasDataRegistration === registration || (g.hasInheritingGrant ?? []).some(c => mentionsRegistration(c, registration))

export type GrantRegistry = ReturnType<typeof makeGrantRegistry>
