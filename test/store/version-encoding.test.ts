// A version record's stored form: its statements front-coded after its JSON fields, and records of earlier builds read as they were.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { readTriples } from '../../src/store/resources.ts'
import { getVersion, unpackGraph } from '../../src/store/versions.ts'
import { versionRecordEncoding } from '../../src/store/version-encoding.ts'
import type { VersionRecord } from '../../src/store/version-record.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

const BASE = 'http://localhost:3995'
const DOC = `@prefix ex: <http://example.org/ns#>.
<#it> ex:a "one, with a comma"; ex:b "two\\nlines, 12,3"; ex:c "ünïcødé \\u0000?"; ex:d <#other>; ex:e 42.
<#other> ex:a "".`
let dir: string
let store: Store

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-version-encoding-'))
  store = await openStore(dir, { keepVersions: true })
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The stored text of the one version of `path`. */
async function storedText(path: string): Promise<string> {
  for await (const value of store.db.values({ gt: `!versions!${path}\0`, lt: `!versions!${path}\0\uffff`, valueEncoding: 'utf8' } as never))
    return value as string
  throw new Error(`no version of ${path}`)
}

describe('version records as stored', () => {
  test('a document version reads back key for key, and its statements are the document it was (commas, newlines, non-ASCII in literals)', async () => {
    await writeTurtle(store, BASE, '/doc.ttl', DOC, 1000)
    const before = (await readTriples(store, BASE, '/doc.ttl')).map(q => q.object.value).sort()
    await writeTurtle(store, BASE, '/doc.ttl', '<#it> <http://example.org/ns#a> "new".', 2000)
    const record = (await getVersion(store, '/doc.ttl', 1000))!
    expect(record.from).toBe(1000)
    expect(record.graph!.rest.length).toBe(6)
    expect(
      unpackGraph(store.quads, record.graph!)
        .map(q => q.object.value)
        .sort(),
    ).toEqual(before)
    // Stored front-coded: far smaller than its JSON, and decoded to the same record.
    const text = await storedText('/doc.ttl')
    expect(text).toContain('\n')
    expect(text.length).toBeLessThan(JSON.stringify(record).length * 0.8)
    expect(versionRecordEncoding.decode(text)).toEqual(record)
  })

  test('a record written as JSON by an earlier build reads as it was', async () => {
    const old: VersionRecord = {
      from: 10,
      until: 20,
      end: 'update',
      meta: { kind: 'rdf', contentType: 'text/turtle', etag: '"e"', size: 3, modified: 10 },
      graph: { prefix: 'GSPO\0\0x', rest: ['a\0b', 'a\0c'] },
    }
    await store.db.put(`!versions!/old.ttl\0${'0'.repeat(13)}10\0${'0'.repeat(13)}20`, JSON.stringify(old), { valueEncoding: 'utf8' } as never)
    expect(await getVersion(store, '/old.ttl', 10)).toEqual(old)
  })

  test("a file's version (no statements) is stored as plain JSON", () => {
    const file: VersionRecord = {
      from: 1,
      until: 2,
      end: 'delete',
      meta: { kind: 'binary', contentType: 'image/png', etag: '"b"', size: 9, modified: 1, blob: 'b1' },
    }
    expect(versionRecordEncoding.encode(file)).toBe(JSON.stringify(file))
    expect(versionRecordEncoding.decode(versionRecordEncoding.encode(file))).toEqual(file)
  })

  test('a malformed stored graph is an error, not a wrong document', () => {
    expect(() => versionRecordEncoding.decode('{"from":1}\n5,abc')).toThrow()
    expect(() => versionRecordEncoding.decode('{"from":1}\nx,abc')).toThrow()
  })
})
