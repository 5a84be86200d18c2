// Rename and move: one synced batch moves a resource, everything below a folder, ACLs, membership and blob references.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { getMeta, readChildren, readTriples, writeResource } from '../../src/store/resources.ts'
import { moveResource } from '../../src/store/move-resource.ts'
import { readGraphKeys } from '../../src/store/quad-ops.ts'
import type { ResourceChange } from '../../src/store/change-feed.ts'
import { HttpError } from '../../src/http/errors.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { binaryContent, storedBytes } from './binary-content.ts'

const BASE = 'http://localhost:3997'
let dir: string
let store: Store
let now = 1_000_000

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-move-'))
  store = await openStore(dir)
  await writeTurtle(store, BASE, '/', '')
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

const move = (from: string, to: string, opts = {}) => moveResource(store, BASE, from, to, ++now, opts)
const members = async (path: string) => (await readChildren(store, path)).map(c => c.path)
const aclTtl = (target: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#r> a acl:Authorization; acl:agent <https://alice.example/#me>; acl:accessTo <${target}>; acl:mode acl:Read.`

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p
  } catch (err) {
    if (err instanceof HttpError) return err
    throw err
  }
  throw new Error('expected a refusal')
}

describe('move a document', () => {
  test('the graph, its ACL and the IRIs that name it move to the new URL; the old name is gone', async () => {
    await writeTurtle(store, BASE, '/notes/', '')
    await writeTurtle(
      store,
      BASE,
      '/notes/a.ttl',
      '<#me> <http://xmlns.com/foaf/0.1/knows> <https://bob.example/#me>; <http://xmlns.com/foaf/0.1/page> <other.ttl>.',
    )
    await writeTurtle(store, BASE, '/notes/a.ttl.acl', aclTtl('a.ttl'))
    const before = await getMeta(store, '/notes/a.ttl')
    const moved = await move('/notes/a.ttl', '/notes/b.ttl')
    expect(moved).toEqual([
      { from: '/notes/a.ttl', to: '/notes/b.ttl' },
      { from: '/notes/a.ttl.acl', to: '/notes/b.ttl.acl' },
    ])
    expect(await getMeta(store, '/notes/a.ttl')).toBeUndefined()
    expect(await getMeta(store, '/notes/a.ttl.acl')).toBeUndefined()
    expect((await getMeta(store, '/notes/b.ttl'))?.etag).toBe(before!.etag)
    expect(await readGraphKeys(store.quads, { termType: 'NamedNode', value: `${BASE}/notes/a.ttl` } as never)).toEqual([])
    const values = (await readTriples(store, BASE, '/notes/b.ttl')).flatMap(q => [q.subject.value, q.object.value])
    expect(values).toContain(`${BASE}/notes/b.ttl#me`)
    expect(values).toContain('https://bob.example/#me')
    expect(values).toContain(`${BASE}/notes/other.ttl`) // not the moved resource: left as it was
    const acl = (await readTriples(store, BASE, '/notes/b.ttl.acl')).map(q => q.object.value)
    expect(acl).toContain(`${BASE}/notes/b.ttl`)
    expect(await members('/notes/')).toEqual(['/notes/b.ttl'])
  })

  test('a file keeps its bytes (the blob stays, its reference names the new path)', async () => {
    await writeResource(store, BASE, '/notes/photo.jpg', await binaryContent(store, 'image/jpeg', 'JPEG bytes'), ++now)
    const { blob } = (await getMeta(store, '/notes/photo.jpg'))!
    await move('/notes/photo.jpg', '/photo.jpg')
    expect(new TextDecoder().decode(await storedBytes(store, '/photo.jpg'))).toBe('JPEG bytes')
    expect(await store.blobRefs.get(blob!)).toBe('/photo.jpg')
    expect(await members('/notes/')).not.toContain('/notes/photo.jpg')
    expect(await members('/')).toContain('/photo.jpg')
  })

  test.each(['a b.ttl', 'café.ttl', 'x#y.ttl', '100%.ttl', 'a+b.ttl'])('a name with awkward characters: %s', async name => {
    const to = `/notes/${encodeURIComponent(name)}`
    await move('/notes/b.ttl', to)
    expect(await getMeta(store, to)).toBeDefined()
    expect(await getMeta(store, `${to}.acl`)).toBeDefined()
    await move(to, '/notes/b.ttl')
    expect(await members('/notes/')).toEqual(['/notes/b.ttl'])
  })
})

describe('move a folder', () => {
  test('three levels with their ACLs move; membership of both parents and inside is right; notifications say so', async () => {
    await writeTurtle(store, BASE, '/p/q/r/deep.ttl', '<> <http://purl.org/dc/terms/title> "deep".')
    await writeTurtle(store, BASE, '/p/q/.acl', aclTtl('./'))
    await writeTurtle(store, BASE, '/p/top.ttl', '')
    await writeTurtle(store, BASE, '/dest/', '')
    const heard: ResourceChange[] = []
    const stop = store.changes.listen(c => heard.push(...c))
    await move('/p/', '/dest/p2/')
    stop()
    for (const old of ['/p/', '/p/q/', '/p/q/r/', '/p/q/r/deep.ttl', '/p/q/.acl', '/p/top.ttl']) expect(await getMeta(store, old)).toBeUndefined()
    expect(await members('/')).not.toContain('/p/')
    expect(await members('/dest/')).toEqual(['/dest/p2/'])
    expect(await members('/dest/p2/')).toEqual(['/dest/p2/q/', '/dest/p2/top.ttl'])
    expect(await members('/dest/p2/q/')).toEqual(['/dest/p2/q/r/'])
    expect(await members('/dest/p2/q/r/')).toEqual(['/dest/p2/q/r/deep.ttl'])
    expect((await readTriples(store, BASE, '/dest/p2/q/r/deep.ttl'))[0]!.subject.value).toBe(`${BASE}/dest/p2/q/r/deep.ttl`)
    expect((await readTriples(store, BASE, '/dest/p2/q/.acl')).map(q => q.object.value)).toContain(`${BASE}/dest/p2/q/`)
    const said = heard.map(c => `${c.type} ${c.topic} ${c.object}`)
    expect(said).toContain('Delete /p/q/r/deep.ttl /p/q/r/deep.ttl')
    expect(said).toContain('Create /dest/p2/q/r/deep.ttl /dest/p2/q/r/deep.ttl')
    expect(said).toContain('Remove / /p/')
    expect(said).toContain('Add /dest/ /dest/p2/')
  })
})

describe('a move is one batch', () => {
  test('a batch that fails leaves everything as it was', async () => {
    await writeTurtle(store, BASE, '/keep/x.ttl', '<> <http://purl.org/dc/terms/title> "x".')
    const s = store as { commit: Store['commit'] }
    const commit = store.commit
    s.commit = () => Promise.reject(new Error('disk gone'))
    try {
      await expect(move('/keep/', '/kept/')).rejects.toThrow('disk gone')
    } finally {
      s.commit = commit
    }
    expect(await getMeta(store, '/keep/x.ttl')).toBeDefined()
    expect(await getMeta(store, '/kept/')).toBeUndefined()
    expect(await members('/keep/')).toEqual(['/keep/x.ttl'])
    expect(await readTriples(store, BASE, '/keep/x.ttl')).toHaveLength(1)
    expect(await readTriples(store, BASE, '/kept/x.ttl')).toHaveLength(0)
  })
})

describe('refusals change nothing', () => {
  test.each([
    ['/keep/x.ttl', '/keep/', 400, 'invalid_path'],
    ['/keep/', '/keep2', 400, 'invalid_path'],
    ['/keep/x.ttl.acl', '/keep/y.ttl.acl', 400, 'invalid_path'],
    ['/keep/', '/keep/inner/', 400, 'move_into_itself'],
    ['/keep/', '/k.acl/', 400, 'invalid_path'],
    ['/keep/x.ttl', '/.well-known/x.ttl', 405, 'reserved_path'],
    ['/keep/x.ttl', '/.admin/x.ttl', 405, 'reserved_path'],
    ['/nothing.ttl', '/n.ttl', 404, 'not_found'],
    ['/keep/x.ttl', '/no-such-folder/x.ttl', 404, 'not_found'],
    ['/keep/x.ttl', '/notes/b.ttl', 409, 'already_exists'],
    ['/keep/x.ttl', '/notes', 409, 'name_conflict'],
    ['/', '/root2/', 405, 'root_protected'],
  ] as const)('%s → %s: %i %s', async (from, to, status, code) => {
    const err = await refusal(move(from, to))
    expect(err.status).toBe(status)
    expect(err.code).toBe(code)
    expect(await getMeta(store, '/keep/x.ttl')).toBeDefined()
  })

  test('a protected path (the WebID document) is refused with everything below a folder', async () => {
    const err = await refusal(move('/keep/', '/moved/', { protectedReason: (p: string) => (p === '/keep/x.ttl' ? 'essential' : undefined) }))
    expect([err.status, err.code]).toEqual([409, 'protected_resource'])
    expect(await getMeta(store, '/keep/x.ttl')).toBeDefined()
  })
})
