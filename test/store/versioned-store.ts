// The store tests of versions share these: a temporary store with versions on, and statements compared as text.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writer } from 'n3'
import type { Quad } from '@rdfjs/types'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

/** A store with versions on in a new temporary directory named from `prefix`, its root container written at `rootAt`. */
export async function openVersionedTempStore(prefix: string, baseUrl: string, rootAt: number): Promise<{ dir: string; store: Store }> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const store = await openStore(dir, { keepVersions: true })
  await writeTurtle(store, baseUrl, '/', '', rootAt)
  return { dir, store }
}

/** Closes the store and removes its directory. */
export async function removeTempStore(store: Store, dir: string): Promise<void> {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
}

/** Statements as sorted N-Triples lines: two graphs are the same statements when these are equal. */
export const nt = (quads: readonly Quad[]) =>
  new Writer({ format: 'N-Triples' })
    .quadsToString([...quads])
    .split('\n')
    .filter(Boolean)
    .sort()
