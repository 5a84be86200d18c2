// quadstore's index keys for a change of quads, as plain batch operations that never carry an empty value.

import type { Quad, Term } from '@rdfjs/types'
import type { Quadstore } from 'quadstore'
import { writePattern } from 'quadstore/dist/serialization/patterns.js'
import type { WriteOp } from './group-commit.ts'

/**
 * The value of keys nobody reads (quad keys, membership entries). classic-level 3.0 (binding.cc)
 * copies each key and value of a write into a fresh buffer and frees it with DisposeSliceBuffer,
 * which skips empty slices: the 1-byte buffer of an empty value is never freed. quadstore writes
 * every quad key with an empty value, so each PUT of a 1 KB document kept ~0.5–1 KB of native
 * memory for ever (measured: RSS +14 MB per 12,000 PUTs after collection and malloc_trim). Data
 * written earlier with empty values reads the same.
 */
export const UNREAD_VALUE = '-'
const UNREAD_BYTES = new Uint8Array([0x2d])

interface KeyRecorder {
  put(key: string, value: unknown, options: object): KeyRecorder
  del(key: string, options: object): KeyRecorder
}
type QuadKeys = { _batchPut(q: Quad, b: KeyRecorder): void }

/** quadstore's keys of `quads` (already in their graphs), one per index. */
function keysOf(quads: Quadstore, newQuads: readonly Quad[]): Set<string> {
  const keys = new Set<string>()
  const recorder: KeyRecorder = {
    put(key) {
      keys.add(key)
      return recorder
    },
    del() {
      return recorder
    },
  }
  // `_batchPut` is what quadstore's own multiPut calls on its chained batch (quadstore 15): it only needs something with put.
  for (const q of newQuads) (quads as unknown as QuadKeys)._batchPut(q, recorder)
  return keys
}

/**
 * The stored keys of one named graph, read as keys only: no quad is decoded. Every index of the pod
 * starts with the graph (open-store.ts QUAD_INDEXES), so one key range holds the whole graph.
 */
export async function readGraphKeys(quads: Quadstore, graph: Term): Promise<string[]> {
  const out: string[] = []
  for (const index of quads.indexes) {
    const q = writePattern({ graph } as never, index, quads.prefixes)
    if (q === null) throw new Error(`the quad index ${index.terms.join(',')} cannot range over one graph`)
    const range = { [q.gte ? 'gte' : 'gt']: q.gt, [q.lte ? 'lte' : 'lt']: q.lt, keyEncoding: 'utf8' }
    out.push(...((await quads.db.keys(range as never).all()) as string[]))
  }
  return out
}

/**
 * The operations that turn a graph stored under `oldKeys` into `newQuads`, to join a resource's
 * other operations in one batch: only keys that change are written, so saving a document with one
 * triple edited writes two keys, not the whole document twice (a delete and a put of every quad).
 * The value is set here, rather than in a LevelDB prewrite hook, which would take every batch off
 * abstract-level's fast path (a hook made each PUT ~25 % dearer).
 */
export function graphChangeOps(quads: Quadstore, oldKeys: readonly string[], newQuads: readonly Quad[]): WriteOp[] {
  const wanted = keysOf(quads, newQuads)
  const ops: WriteOp[] = []
  for (const key of oldKeys) {
    if (!wanted.delete(key)) ops.push({ type: 'del', key, keyEncoding: 'utf8' } as WriteOp)
  }
  for (const key of wanted) ops.push({ type: 'put', key, value: UNREAD_BYTES, keyEncoding: 'utf8', valueEncoding: 'view' } as WriteOp)
  return ops
}
