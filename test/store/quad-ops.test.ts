// A resource write changes only the quad keys that differ; a delete leaves none of its graph behind.

import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DataFactory } from 'n3'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { deleteResource, readTriples } from '../../src/store/resources.ts'
import { graphChangeOps, readGraphKeys } from '../../src/store/quad-ops.ts'
import type { WriteOp } from '../../src/store/group-commit.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { DOC_1K, editedDoc1k } from '../bench/documents.ts'

const BASE = 'http://localhost:4700'
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function freshStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-quad-ops-'))
  dirs.push(dir)
  const store = await openStore(dir)
  await writeTurtle(store, BASE, '/d/', '')
  return store
}

/** The quad-key operations of every batch committed from now on (metadata and other sublevels left out). */
function recordQuadOps(store: Store): WriteOp[] {
  const seen: WriteOp[] = []
  const commit = store.commit.bind(store)
  ;(store as { commit: Store['commit'] }).commit = ops => {
    seen.push(...ops.filter(op => !('sublevel' in op && op.sublevel)))
    return commit(ops)
  }
  return seen
}

const graphKeys = (store: Store, path: string) => readGraphKeys(store.quads, DataFactory.namedNode(BASE + path))

describe('quad keys of a resource write', () => {
  test('saving a document with one triple edited deletes one key and puts one; it reads back edited', async () => {
    const store = await freshStore()
    try {
      await writeTurtle(store, BASE, '/d/doc', DOC_1K)
      const before = await graphKeys(store, '/d/doc')
      const ops = recordQuadOps(store)
      await writeTurtle(store, BASE, '/d/doc', editedDoc1k(1))
      expect(ops.map(op => op.type).sort()).toEqual(['del', 'put'])
      expect((await graphKeys(store, '/d/doc')).length).toBe(before.length)
      const titles = (await readTriples(store, BASE, '/d/doc')).filter(q => q.predicate.value === 'http://purl.org/dc/terms/title')
      expect(titles.map(q => q.object.value)).toEqual(['bench, edit 1'])
    } finally {
      await store.close()
    }
  })

  test('saving the same triples again writes no quad key', async () => {
    const store = await freshStore()
    try {
      await writeTurtle(store, BASE, '/d/doc', DOC_1K)
      const ops = recordQuadOps(store)
      await writeTurtle(store, BASE, '/d/doc', DOC_1K)
      expect(ops).toEqual([])
    } finally {
      await store.close()
    }
  })

  test("a graph's keys are its own: /d/doc is not /d/doc2 nor /d/doc#x", async () => {
    const store = await freshStore()
    try {
      await writeTurtle(store, BASE, '/d/doc', '<#a> <http://example.org/p> 1.')
      await writeTurtle(store, BASE, '/d/doc2', '<#a> <http://example.org/p> 1. <#b> <http://example.org/p> 2.')
      expect((await graphKeys(store, '/d/doc')).length).toBe(1)
      expect((await graphKeys(store, '/d/doc2')).length).toBe(2)
      await writeTurtle(store, BASE, '/d/doc', '')
      expect(await graphKeys(store, '/d/doc')).toEqual([])
      expect((await readTriples(store, BASE, '/d/doc2')).length).toBe(2)
    } finally {
      await store.close()
    }
  })

  test('deleting a resource removes every key of its graph and of its ACL', async () => {
    const store = await freshStore()
    try {
      await writeTurtle(store, BASE, '/d/doc', DOC_1K)
      await writeTurtle(
        store,
        BASE,
        '/d/doc.acl',
        `<#o> a <http://www.w3.org/ns/auth/acl#Authorization>; <http://www.w3.org/ns/auth/acl#accessTo> <${BASE}/d/doc>.`,
      )
      await deleteResource(store, BASE, '/d/doc', Date.now())
      expect(await graphKeys(store, '/d/doc')).toEqual([])
      expect(await graphKeys(store, '/d/doc.acl')).toEqual([])
    } finally {
      await store.close()
    }
  })

  test('duplicate triples in a new document are written once', async () => {
    const store = await freshStore()
    try {
      const q = DataFactory.quad(
        DataFactory.namedNode(`${BASE}/d/doc#a`),
        DataFactory.namedNode('http://example.org/p'),
        DataFactory.literal('x'),
        DataFactory.namedNode(`${BASE}/d/doc`),
      )
      expect(graphChangeOps(store.quads, [], [q, q]).length).toBe(1)
    } finally {
      await store.close()
    }
  })
})
