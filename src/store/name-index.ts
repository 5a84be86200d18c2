// The name index: every resource's name cut into folded words, each a key that leads to its path, so a search by
// name reads a few keys instead of every resource of the pod.

import type { Store } from './open-store.ts'
import type { ResourceChange } from './change-feed.ts'
import type { WriteOp } from './group-commit.ts'
import { inSublevel } from './sublevel.ts'
import { isAuxiliaryPath } from './paths.ts'
import { readableName } from '../lib/readable-path.ts'
import { UNREAD_VALUE } from './quad-ops.ts'

/**
 * A word longer than this is indexed by its first this many characters: the keys stay short, and a query word
 * is cut the same way, so it still finds the name.
 */
const WORD_CHARS = 40
/** Keys a search reads at most: a query of a word in half the pod's names stops here and says more may match. */
export const SEARCH_SCAN_LIMIT = 5000

/**
 * A name as people type it: lowercased, accents folded (`Été` → `ete`), cut into words at every character that
 * is neither a letter nor a digit (spaces, `.`, `#`, `?`, `%`, `+`, `-`…). The same rule folds the name and the query.
 */
export function foldedWords(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
  const words = folded.split(/[^\p{L}\p{N}]+/u).filter(w => w !== '')
  return [...new Set(words.map(w => [...w].slice(0, WORD_CHARS).join('')))]
}

/** `word\0path`: a prefix scan of a word finds every path whose name holds a word starting with it. */
const keyOf = (word: string, path: string) => `${word}\0${path}`

/** The words a path is found by: its own name's (decoded), never its folders' (those are resources of their own). */
export const wordsOfPath = (path: string): string[] => (path === '/' || isAuxiliaryPath(path) ? [] : foldedWords(readableName(path)))

/**
 * The index's operations for one write's changes, written in the write's own batch (commit-changes.ts): a path
 * created (a write, a move's new name, a restore) enters with its words, a path deleted (a delete, a move's old
 * name, the trash) leaves. Nothing is read: the words follow from the path alone.
 */
export function nameIndexOps(store: Pick<Store, 'names'>, changes: readonly ResourceChange[]): WriteOp[] {
  const ops: WriteOp[] = []
  for (const c of changes) {
    if (c.type !== 'Create' && c.type !== 'Delete') continue
    for (const word of wordsOfPath(c.topic)) {
      ops.push(
        c.type === 'Create'
          ? { type: 'put', key: keyOf(word, c.topic), value: UNREAD_VALUE, ...inSublevel(store.names) }
          : { type: 'del', key: keyOf(word, c.topic), ...inSublevel(store.names) },
      )
    }
  }
  return ops
}

/** The index entries of one path, for writers that build their own batches (import, the migration). */
export const nameIndexEntries = (path: string): string[] => wordsOfPath(path).map(w => keyOf(w, path))

export interface NameMatches {
  /** Stored paths whose name holds every word of the query (each a word's beginning), in index order. */
  readonly paths: string[]
  /** More may match than `paths` holds: the limit was reached, or the scan stopped at SEARCH_SCAN_LIMIT keys. */
  readonly more: boolean
}

/**
 * Paths whose own name holds a word beginning with each of the query's words (`ete pho` finds `Été photo.jpg`,
 * not `Été/photo.jpg`). The longest query word is read from the index (the fewest keys, usually), and each path
 * it gives is checked against the other words by its name alone.
 */
export async function findNames(store: Pick<Store, 'names'>, query: string, limit: number): Promise<NameMatches> {
  const words = foldedWords(query)
  if (words.length === 0) return { paths: [], more: false }
  const lead = words.reduce((a, b) => (b.length > a.length ? b : a))
  const rest = words.filter(w => w !== lead)
  const paths: string[] = []
  const seen = new Set<string>()
  const it = store.names.keys({ gte: lead, lt: `${lead}\uffff` })
  let read = 0
  try {
    while (paths.length < limit) {
      const keys = await it.nextv(Math.min(1000, limit * 4))
      if (keys.length === 0) return { paths, more: false }
      for (const key of keys) {
        read++
        const path = key.slice(key.indexOf('\0') + 1)
        if (seen.has(path)) continue
        seen.add(path)
        const own = wordsOfPath(path)
        if (!rest.every(q => own.some(w => w.startsWith(q)))) continue
        paths.push(path)
        if (paths.length === limit) return { paths, more: true }
      }
      if (read >= SEARCH_SCAN_LIMIT) return { paths, more: true }
    }
    return { paths, more: true }
  } finally {
    await it.close()
  }
}
