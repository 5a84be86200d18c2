// A copy of one document or file (resources/copy-document.ts, a WebDAV COPY's member): Read on the source and Write
// at the new name decided before anything is written; a file's bytes given a second name (a hard link) on the local
// disk, copied where the store cannot (an object store, a filesystem without links, a move under way).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { getMeta } from '../../src/store/resources.ts'
import { openLocalBlobStore } from '../../src/store/local-blob-store.ts'
import { openPodBlobStore } from '../../src/store/moving-blob-store.ts'
import { NO_PRECONDITIONS } from '../../src/resources/preconditions.ts'
import type { ResourceMeta } from '../../src/store/resource-meta.ts'
import { refusal } from './refusal.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const CAROL = { principal: agent('https://carol.example/profile#me') }
const NAME = '/files/%C3%89t%C3%A9%20%231%20100%25+%3F.bin'
const BYTES = new Uint8Array(200_000).map((_, i) => (i * 13) % 251)

let pod: AccessPod
const blobFile = (meta: ResourceMeta | undefined) => join(pod.deps.cfg.dataDir, 'files', meta!.blob!.slice(0, 2), meta!.blob!)
const bytesAt = async (path: string) => {
  const readable = await pod.deps.resources.read(OWNER, path)
  const answer = await pod.deps.resources.represent(path, readable, {
    accept: null,
    requestUrl: BASE + path,
    requestHeaders: new Headers(),
    head: false,
    headers: new Headers(),
  })
  return new Uint8Array(await answer.arrayBuffer())
}

beforeAll(async () => {
  pod = await openAccessPod()
  await pod.deps.resources.put(OWNER, NAME, 'image/x-raw', BYTES)
  // Carol may read /files/ but write nowhere
  await pod.seed(
    '/files/.acl',
    `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#carol> a acl:Authorization; acl:agent <${CAROL.principal.webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
  )
})
afterAll(() => pod.close())

describe('a file', () => {
  test('copied on the local disk: a new blob that is a second name of the same file, with its type and digest', async () => {
    await pod.deps.resources.copy(OWNER, NAME, '/files/copie%20%C3%A9t%C3%A9.bin', NO_PRECONDITIONS)
    const [source, copy] = await Promise.all([getMeta(pod.store, NAME), getMeta(pod.store, '/files/copie%20%C3%A9t%C3%A9.bin')])
    expect(copy?.kind).toBe('binary')
    expect(copy?.contentType).toBe('image/x-raw')
    expect(copy?.sha256).toBe(source!.sha256!)
    expect(copy?.size).toBe(BYTES.length)
    expect(copy?.blob).not.toBe(source!.blob!)
    expect(statSync(blobFile(copy)).ino).toBe(statSync(blobFile(source)).ino)
    expect(statSync(blobFile(copy)).nlink).toBe(2)
    expect(await bytesAt('/files/copie%20%C3%A9t%C3%A9.bin')).toEqual(BYTES)
  })

  test('where the store cannot give a second name, its bytes are copied', async () => {
    const blobs = pod.store.blobs
    const duplicate = blobs.duplicate
    blobs.duplicate = async () => undefined
    try {
      await pod.deps.resources.copy(OWNER, NAME, '/files/copied.bin', NO_PRECONDITIONS)
    } finally {
      blobs.duplicate = duplicate
    }
    const [source, copy] = await Promise.all([getMeta(pod.store, NAME), getMeta(pod.store, '/files/copied.bin')])
    expect(copy?.sha256).toBe(source!.sha256!)
    expect(statSync(blobFile(copy)).ino).not.toBe(statSync(blobFile(source)).ino)
    expect(await bytesAt('/files/copied.bin')).toEqual(BYTES)
  })

  test('without Write at the new name: 403 forbidden, nothing made (no resource, no second name)', async () => {
    const before = statSync(blobFile(await getMeta(pod.store, NAME))).nlink
    expect(await refusal(() => pod.deps.resources.copy(CAROL, NAME, '/files/carol.bin', NO_PRECONDITIONS))).toEqual([403, 'forbidden'])
    expect(await getMeta(pod.store, '/files/carol.bin')).toBeUndefined()
    expect(statSync(blobFile(await getMeta(pod.store, NAME))).nlink).toBe(before)
  })

  test('without Read of the source: 401 for the public, and nothing made', async () => {
    expect(await refusal(() => pod.deps.resources.copy({ principal: ANONYMOUS }, NAME, '/files/x.bin', NO_PRECONDITIONS))).toEqual([401, 'unauthenticated'])
    expect(await getMeta(pod.store, '/files/x.bin')).toBeUndefined()
  })
})

describe('a document', () => {
  test('is written again from its Turtle', async () => {
    await pod.seed('/files/notes', '<#it> foaf:name "Notes été".')
    await pod.deps.resources.copy(OWNER, '/files/notes', '/files/notes%20copy', NO_PRECONDITIONS)
    expect((await getMeta(pod.store, '/files/notes%20copy'))?.kind).toBe('rdf')
    expect(new TextDecoder().decode(await bytesAt('/files/notes%20copy'))).toContain('"Notes été"')
  })
})

describe('the blob stores', () => {
  test('local: a blob that is gone has no second name (undefined: the caller copies)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-duplicate-'))
    try {
      const blobs = openLocalBlobStore(dir)
      expect(await blobs.duplicate('0'.repeat(32), { size: 1, sha256: 'x' })).toBeUndefined()
      const stored = await blobs.put([new TextEncoder().encode('bytes')], { reserveBytes: 0 })
      const twin = await blobs.duplicate(stored.id, stored)
      expect(twin).toEqual({ id: twin!.id, size: 5, sha256: stored.sha256 })
      // Removing one name leaves the other
      await blobs.discard(stored.id)
      expect(await blobs.read(twin!.id).text()).toBe('bytes')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('while a move copies the bytes elsewhere, the pod store gives no second name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solopod-duplicate-'))
    try {
      const here = openLocalBlobStore(join(dir, 'a'))
      const stored = await here.put([new TextEncoder().encode('bytes')], { reserveBytes: 0 })
      const podBlobs = await openPodBlobStore(here)
      expect(await podBlobs.duplicate(stored.id, stored)).toBeDefined()
      // The blob already copied to the target too: either store could link it, and neither does while the move goes on
      const there = openLocalBlobStore(join(dir, 'b'))
      await there.putCopy(stored.id, [new TextEncoder().encode('bytes')])
      await podBlobs.startMoving(there, { from: here, moved: pod.store.movedBlobs })
      expect(await podBlobs.duplicate(stored.id, stored)).toBeUndefined()
      podBlobs.finishMoving()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
