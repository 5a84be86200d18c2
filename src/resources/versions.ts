// The versions of a resource for every face: its TimeMap, the state current at a time (the TimeGate), one memento
// and its restore. Who may read them is whoever may Read the URI now, by the rules that apply to it now, also after
// it was deleted (docs/versions.md).

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../http/errors.ts'
import { getMeta, readTriples, type WriteResult } from '../store/resources.ts'
import { isStateAt, stateTime, type ResourceMeta } from '../store/resource-meta.ts'
import { firstVersionSpan, getVersion, lastVersionSpan, latestVersionBefore, versionSpans, versionStatements, type VersionSpan } from '../store/versions.ts'
import { requiredModes } from '../policy/modes.ts'
import { readGraphStatements } from '../rdf/graph-statements.ts'
import { serializeDocument } from '../rdf/serialize-rdf.ts'
import { N_QUADS, TURTLE } from '../rdf/media-types.ts'
import { decide, type Acting, type ResourcesDeps } from './acting.ts'
import type { Readable } from './read-resource.ts'
import type { OutgoingBody } from './receive-content.ts'
import { readResource, type RepresentationRequest } from './representation.ts'
import { makeRepresentationCache } from './representation-cache.ts'
import { memoryShares } from '../lib/memory-budget.ts'

/** One state of a resource a memento shows: when it was written (its id and Memento-Datetime). */
export interface MementoEntry {
  readonly from: number
}

/** A memento the principal may read: the state's metadata (a folder's shown as a document: its own statements) and its statements. */
export interface Memento extends Readable {
  readonly from: number
  /** RDF and folders: the state's statements, in the default graph. */
  readonly statements?: () => Promise<Quad[]>
}

/**
 * A TimeMap as it is read: its bounds first (its self link names them before the list), then the mementos, oldest
 * first, the current state last, read from the versions' keys as they are consumed (a long one is not built whole).
 */
export interface TimeMap {
  /** The Memento-Datetimes of the first and the last memento listed. */
  readonly first: number
  readonly last: number
  readonly mementos: AsyncIterable<MementoEntry>
  readonly wacAllow: string
  readonly publicRead: boolean
}

export interface VersionReads {
  /** Memento's TimeMap (RFC 7089 §5): every state kept of `path`, the current one last; 404 when none. */
  timeMap(who: Acting, path: string): Promise<TimeMap>
  /** Memento's TimeGate (RFC 7089 §4): the state of `path` current at `at` (epoch ms); 404 `memento_not_found` when none is kept. */
  mementoAt(who: Acting, path: string, at: number): Promise<MementoEntry>
  /** The memento of the state written at `from`, current or kept. */
  readMemento(who: Acting, path: string, from: number): Promise<Memento>
  /** A memento as HTTP: the representation `request` asks for, content-negotiated as the resource's own (representation.ts). */
  representMemento(path: string, memento: Memento, request: RepresentationRequest): Promise<Response>
  /** Puts the state written at `from` back: an ordinary PUT of its content for `who` (itself versioned), decided as one. */
  restoreVersion(who: Acting, path: string, from: number): Promise<WriteResult>
}

/** The layer's own PUT in one step (put-resource.ts `putInOneStep`). */
type Put = (who: Acting, path: string, contentType: string | null, body: OutgoingBody) => Promise<WriteResult>

/** A memento whose statements a racing sweep removed between finding it and reading it. */
const throwGone = (path: string): never => {
  throw notKept(path)
}
const notKept = (path: string) => new HttpError(404, 'memento_not_found', `no state of ${path} is kept from that time`)
/** A folder's memento is its own statements (its listing is its members' versions), served as a document. */
const asDocument = (meta: ResourceMeta): ResourceMeta => (meta.kind === 'container' ? { ...meta, kind: 'rdf' } : meta)

export function makeVersionReads(deps: ResourcesDeps, put: Put): VersionReads {
  const { store, cfg } = deps
  // Apart from the resources' cache: a folder's memento (its own statements) shares its ETag with the folder's listing.
  const mementoBytes = makeRepresentationCache(memoryShares(cfg.memoryBudgetBytes).mementos)
  // Read of the URI as a GET of it would need, existing or not: a deleted resource's versions follow today's rules.
  const mayRead = (who: Acting, path: string) => decide(deps, who, path, requiredModes({ method: 'GET', url: cfg.baseUrl + path, exists: true }))

  async function findMemento(path: string, from: number): Promise<{ meta: ResourceMeta; statements?: () => Promise<Quad[]> } | undefined> {
    const current = await getMeta(store, path)
    if (isStateAt(current, from)) {
      return { meta: current, ...(current.kind !== 'binary' ? { statements: () => readTriples(store, cfg.baseUrl, path) } : {}) }
    }
    const version = Number.isSafeInteger(from) ? await getVersion(store, path, from) : undefined
    if (!version) return undefined
    return {
      meta: version.meta,
      ...(version.meta.kind !== 'binary' ? { statements: async () => (await versionStatements(store, cfg.baseUrl, path, version)) ?? throwGone(path) } : {}),
    }
  }

  async function readMemento(who: Acting, path: string, from: number): Promise<Memento> {
    const decision = await mayRead(who, path)
    const found = await findMemento(path, from)
    if (!found) throw notKept(path)
    return {
      meta: asDocument(found.meta),
      from,
      wacAllow: decision.wacAllow,
      publicRead: decision.public.has('read'),
      ...(found.statements ? { statements: found.statements } : {}),
    }
  }

  return {
    async timeMap(who, path) {
      const decision = await mayRead(who, path)
      const current = await getMeta(store, path)
      const oldest = await firstVersionSpan(store, path)
      const newest = current ? undefined : await lastVersionSpan(store, path)
      if (!oldest && !current) throw notKept(path)
      return {
        first: oldest?.from ?? stateTime(current!),
        last: current ? stateTime(current) : newest!.from,
        // A write racing the read keeps as a version the state read as current here: the two are one memento.
        mementos: dedupe(versionSpans(store, path), current),
        wacAllow: decision.wacAllow,
        publicRead: decision.public.has('read'),
      }
    },

    async mementoAt(who, path, at) {
      await mayRead(who, path)
      const current = await getMeta(store, path)
      if (current && stateTime(current) <= at) return { from: stateTime(current) }
      const version = await latestVersionBefore(store, path, at)
      // A state removed before `at` (deleted, moved away, trashed) was not there at `at`; a replaced one was, until
      // its successor (which thinning may have dropped: the nearest earlier state kept stands for it).
      if (!version || (version.end !== 'update' && version.until <= at)) throw notKept(path)
      return { from: version.from }
    },

    readMemento,

    representMemento: (path, memento, request) =>
      readResource({
        ...request,
        store,
        baseUrl: cfg.baseUrl,
        path,
        meta: memento.meta,
        cache: mementoBytes,
        ...(memento.statements ? { statements: memento.statements } : {}),
      }),

    async restoreVersion(who, path, from) {
      const memento = await readMemento(who, path, from)
      const { meta } = memento
      if (meta.kind === 'binary') return put(who, path, meta.contentType, store.blobs.read(meta.blob!).stream())
      const { triples, namedGraphs } = contentOf(meta, await memento.statements!())
      const type = namedGraphs.length > 0 ? N_QUADS : TURTLE
      return put(who, path, type, new TextEncoder().encode(await serializeDocument(triples, namedGraphs, type, cfg.baseUrl + path, meta.prefixes)))
    },
  }
}

/** The versions, then the current state; a move there and back leaves two states written at one time: one memento. */
async function* dedupe(spans: AsyncIterable<VersionSpan>, current: ResourceMeta | undefined): AsyncIterable<MementoEntry> {
  let previous: number | undefined
  for await (const { from } of spans) {
    if (from !== previous) yield { from }
    previous = from
  }
  if (current && stateTime(current) !== previous) yield { from: stateTime(current) }
}

const contentOf = (meta: ResourceMeta, stored: Quad[]) => (meta.namedGraphs ? readGraphStatements(stored) : { triples: stored, namedGraphs: [] })
