// Issue 36: a write of the very same statements keeps a version that names the state holding them, not a copy;
// who wrote it and when stay, and thinning hands the statements down before it removes the state they were named by.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import type { Store } from '../../src/store/open-store.ts'
import { deleteResource, getMeta, readTriples, writeResource } from '../../src/store/resources.ts'
import { moveResource } from '../../src/store/move-resource.ts'
import { dropVersions, getVersion, readVersionSpans, versionStatements, type ChangeAuthor } from '../../src/store/versions.ts'
import { versionRecordEncoding } from '../../src/store/version-encoding.ts'
import { thinVersions } from '../../src/store/version-sweep.ts'
import { capVersions } from '../../src/store/version-cap.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { nt, openVersionedTempStore, removeTempStore } from './versioned-store.ts'

const BASE = 'http://localhost:3996'
const ALICE: ChangeAuthor = { agent: 'https://alice.example/card#me', client: 'https://notes.example/id', via: 'DPoP' }
const BOB: ChangeAuthor = { agent: 'https://bob.example/card#me', client: 'https://sync.example/id', via: 'HttpSig' }
const MIN = 60_000
const HOUR = 60 * MIN
const B = 1_700_000_000_000 - (1_700_000_000_000 % HOUR) // an hour's start: thinning's buckets are whole hours
const A_TTL = `<#it> <http://schema.org/text> "${'a'.repeat(1000)}".`
let dir: string
let store: Store

beforeAll(async () => {
  ;({ dir, store } = await openVersionedTempStore('solopod-version-identical-', BASE, B - HOUR))
})
afterAll(() => removeTempStore(store, dir))

const rewrite = (path: string, ttl: string, at: number, by?: ChangeAuthor) =>
  writeResource(store, BASE, path, { kind: 'rdf', contentType: 'text/turtle', triples: parseTurtle(path, ttl), size: ttl.length }, at, by)
const parseTurtle = (path: string, ttl: string) => new Parser({ baseIRI: BASE + path }).parse(ttl) as Quad[]
const statementsOf = async (path: string, from: number) => nt((await versionStatements(store, BASE, path, (await getVersion(store, path, from))!))!)

describe('an identical rewrite', () => {
  test('keeps who wrote it and when, and names the state that holds the statements instead of copying them', async () => {
    await writeTurtle(store, BASE, '/same.ttl', A_TTL, B)
    const a = nt(await readTriples(store, BASE, '/same.ttl'))
    const first = (await getMeta(store, '/same.ttl'))!
    await rewrite('/same.ttl', A_TTL, B + MIN, ALICE)
    const second = (await getMeta(store, '/same.ttl'))!
    await rewrite('/same.ttl', A_TTL, B + 2 * MIN, BOB)
    const v1 = (await getVersion(store, '/same.ttl', first.modified))!
    const v2 = (await getVersion(store, '/same.ttl', second.modified))!
    expect(v1).toMatchObject({ from: B, until: B + MIN, end: 'update', by: ALICE, meta: first, sameAs: B + MIN })
    expect(v2).toMatchObject({ from: B + MIN, until: B + 2 * MIN, by: BOB, meta: second, sameAs: B + 2 * MIN })
    expect(v1.graph).toBeUndefined()
    // What is stored for it is its metadata only, not the 1 KB statement.
    expect(versionRecordEncoding.encode(v1).length).toBeLessThan(600)
    // Both read back as the statements, through the current state.
    expect(await statementsOf('/same.ttl', B)).toEqual(a)
    expect(await statementsOf('/same.ttl', B + MIN)).toEqual(a)

    // An edit: the state it replaces keeps the statements; the chain now ends in that version.
    await rewrite('/same.ttl', '<#it> <http://schema.org/text> "edited".', B + 3 * MIN)
    expect((await getVersion(store, '/same.ttl', B + 2 * MIN))!.graph).toBeDefined()
    expect(await statementsOf('/same.ttl', B)).toEqual(a)
    expect(await statementsOf('/same.ttl', B + 2 * MIN)).toEqual(a)
  })

  test('a different type with the same statements is still a version of its own metadata', async () => {
    await writeTurtle(store, BASE, '/typed.ttl', A_TTL, B)
    const triples = parseTurtle('/typed.ttl', A_TTL)
    await writeResource(store, BASE, '/typed.ttl', { kind: 'rdf', contentType: 'application/ld+json', triples, size: 9 }, B + MIN)
    const v = (await getVersion(store, '/typed.ttl', B))!
    expect(v).toMatchObject({ sameAs: B + MIN, meta: { contentType: 'text/turtle' } })
  })
})

/**
 * At B, B+10m (identical), B+1h10m (identical), B+1h20m (edit to X), B+1h30m (edit to Y). Five hours later hour 0
 * keeps its one version (B → B+10m, naming B+10m) and hour 1 its last (X's): the two it names are dropped.
 */
async function historyOf(path: string) {
  await writeTurtle(store, BASE, path, A_TTL, B)
  await rewrite(path, A_TTL, B + 10 * MIN, ALICE)
  await rewrite(path, A_TTL, B + HOUR + 10 * MIN, BOB)
  await rewrite(path, '<#it> <http://schema.org/text> "X".', B + HOUR + 20 * MIN)
  await rewrite(path, '<#it> <http://schema.org/text> "Y".', B + HOUR + 30 * MIN)
  return nt(parseTurtle(path, A_TTL))
}

describe('thinning around identical rewrites', () => {
  for (const batchSize of [500, 1]) {
    test(`removing the state a version names hands its statements down (batches of ${batchSize})`, async () => {
      const path = `/thin${batchSize}.ttl`
      const a = await historyOf(path)
      expect((await readVersionSpans(store, path)).map(s => s.from)).toEqual([B, B + 10 * MIN, B + HOUR + 10 * MIN, B + HOUR + 20 * MIN])
      await thinVersions(store, B + 5 * HOUR, 30, batchSize) // the other tests' documents are thinned too
      expect((await readVersionSpans(store, path)).map(s => s.from)).toEqual([B, B + HOUR + 20 * MIN])
      const kept = (await getVersion(store, path, B))!
      expect(kept).toMatchObject({ from: B, until: B + 10 * MIN, by: ALICE })
      expect(kept.sameAs).toBeUndefined()
      expect(nt((await versionStatements(store, BASE, path, kept))!)).toEqual(a)
      expect(await statementsOf(path, B + HOUR + 20 * MIN)).toEqual(['<http://localhost:3996' + path + '#it> <http://schema.org/text> "X" .'])
    })
  }

  test('a version naming the current state keeps naming it when the one between goes', async () => {
    await writeTurtle(store, BASE, '/now.ttl', A_TTL, B)
    await rewrite('/now.ttl', A_TTL, B + MIN)
    await rewrite('/now.ttl', A_TTL, B + 2 * MIN)
    await dropVersions(store, [(await readVersionSpans(store, '/now.ttl'))[1]!.key])
    expect(await getVersion(store, '/now.ttl', B)).toMatchObject({ sameAs: B + 2 * MIN })
    expect(await statementsOf('/now.ttl', B)).toEqual(nt(await readTriples(store, BASE, '/now.ttl')))
  })

  test('the version that names a removed one is found past a state moved in later with an older time', async () => {
    await writeTurtle(store, BASE, '/moved/from.ttl', '<#it> <http://schema.org/text> "M".', B + 5 * MIN)
    await writeTurtle(store, BASE, '/moved/x.ttl', A_TTL, B)
    await rewrite('/moved/x.ttl', A_TTL, B + 10 * MIN)
    await deleteResource(store, BASE, '/moved/x.ttl', B + 20 * MIN)
    await moveResource(store, BASE, '/moved/from.ttl', '/moved/x.ttl', B + 30 * MIN)
    await rewrite('/moved/x.ttl', '<#it> <http://schema.org/text> "N".', B + 40 * MIN)
    // In key order: the identical rewrite's (from B), the moved state's (from B+5m, ended at B+40m), the one it names (B+10m).
    const spans = await readVersionSpans(store, '/moved/x.ttl')
    expect(spans.map(s => s.from)).toEqual([B, B + 5 * MIN, B + 10 * MIN])
    await dropVersions(store, [spans[2]!.key])
    const kept = (await getVersion(store, '/moved/x.ttl', B))!
    expect(kept.graph).toBeDefined()
    expect(nt((await versionStatements(store, BASE, '/moved/x.ttl', kept))!)).toEqual(nt(parseTurtle('/moved/x.ttl', A_TTL)))
    expect(await statementsOf('/moved/x.ttl', B + 5 * MIN)).toEqual(['<http://localhost:3996/moved/x.ttl#it> <http://schema.org/text> "M" .'])
  })

  test('the disk-share cap counts nothing for an identical rewrite', async () => {
    const before = await capVersions(store, B + 5 * HOUR, 0)
    await rewrite('/now.ttl', A_TTL, B + 3 * MIN)
    const after = await capVersions(store, B + 5 * HOUR, 0)
    expect(after.heldBytes).toBe(before.heldBytes)
  })
})
