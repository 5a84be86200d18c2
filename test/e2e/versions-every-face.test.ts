// Issue 36: every change keeps the state it replaced as a version, whatever face made it — apps over LDP (the
// public: PUT, N3 and SPARQL PATCH, DELETE; a Solid app with DPoP), a POST (who created it), a drive over WebDAV
// (PUT, DELETE, MOVE, COPY onto a file), the owner's pages (edit, upload with Replace, rename, the trash, delete for
// good) and a resumable upload — and records who made it, with which app and through which face. Read from the
// store itself once the pod has stopped.

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { openStore } from '../../src/store/open-store.ts'
import { isCreationTimeKey, pathOfVersionKey, type ChangeAuthor, type VersionRecord } from '../../src/store/versions.ts'
import { ownerForms, type OwnerForms } from './owner-login.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { runSolopod, startPod, type RunningPod } from './start-server.ts'
import { seedPublicContainer } from './seed-store.ts'

let pod: RunningPod
let owner: OwnerForms
let drive: { id: string; secret: string }
let notes: OwnerApp
const url = (path: string) => pod.baseUrl + path
const ownerWebId = () => `${pod.baseUrl}/profile/card#me`

/** A request as the public makes it (the public may write /pub/). */
async function anyone(method: string, path: string, body?: string | Uint8Array<ArrayBuffer>, type = 'text/turtle', more: Record<string, string> = {}) {
  const res = await fetch(url(path), {
    method,
    headers: { ...(body !== undefined ? { 'content-type': type } : {}), ...more },
    ...(body !== undefined ? { body } : {}),
  })
  expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${res.status < 300 ? res.status : 'a success'}`)
  return res
}
/** A request as a mounted drive makes it (WebDAV, a client credential over HTTP Basic). */
async function dav(method: string, path: string, body?: string, more: Record<string, string> = {}) {
  const res = await fetch(url(path), {
    method,
    headers: { authorization: `Basic ${btoa(`${drive.id}:${drive.secret}`)}`, ...(body !== undefined ? { 'content-type': 'text/plain' } : {}), ...more },
    ...(body !== undefined ? { body } : {}),
  })
  expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${res.status < 300 ? res.status : 'a success'}`)
  return res
}
async function form(path: string, fields: Record<string, string>) {
  const res = await owner.postForm(path, fields)
  expect(res.status).toBe(303)
}
async function upload(folder: string, name: string, text: string, replace: boolean) {
  const body = new FormData()
  body.append('csrf', owner.csrf)
  body.append('path', folder)
  if (replace) body.append('replace', 'yes')
  body.append('file', new File([text], name, { type: 'text/plain' }))
  const res = await fetch(url('/.admin/files/upload'), {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: owner.jar.header(), origin: pod.baseUrl },
    body,
  })
  expect(res.status).toBe(303)
}
const editVersion = async (path: string) =>
  /name="version" value="([^"]*)"/.exec(await (await owner.page(`/.admin/files/edit?path=${encodeURIComponent(path)}`)).text())![1]!.replaceAll('&quot;', '"')

beforeAll(async () => {
  pod = await startPod({ seed: (dir, base) => seedPublicContainer(dir, base, '/pub/', ['Read', 'Write']) })
  const r = await runSolopod('clients', 'add', '--name', 'Drive', '--data', pod.dataDir)
  const [id, secret] = r.stdout
    .trim()
    .split('\n')
    .map(l => l.slice(l.indexOf('=') + 1))
  drive = { id: id!, secret: secret! }
  owner = await ownerForms(pod)
  notes = await signInOwnerApp(pod, 'Notes')
}, 60_000)
afterAll(async () => {
  notes?.stop()
  await pod?.dispose()
})

test('every face keeps the replaced or removed state as a version, with who, which app and which face', async () => {
  const doc = (name: string) => `<#a> <http://xmlns.com/foaf/0.1/name> "${name}".`
  // An app over LDP, as the public
  await anyone('PUT', '/pub/put.ttl', doc('Ann'))
  await anyone('PUT', '/pub/put.ttl', doc('Bob'))
  await anyone('PUT', '/pub/n3.ttl', doc('Ann'))
  await anyone(
    'PATCH',
    '/pub/n3.ttl',
    `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#b> <http://xmlns.com/foaf/0.1/name> "Cy". }.`,
    'text/n3',
  )
  await anyone('PUT', '/pub/sparql.ttl', doc('Ann'))
  await anyone('PATCH', '/pub/sparql.ttl', 'INSERT DATA { <#b> <http://xmlns.com/foaf/0.1/name> "Cy". }', 'application/sparql-update')
  await anyone('PUT', '/pub/gone.txt', 'bye', 'text/plain')
  await anyone('DELETE', '/pub/gone.txt')
  const posted = new URL((await anyone('POST', '/pub/', doc('Di'), 'text/turtle', { slug: 'posted.ttl' })).headers.get('location')!).pathname
  // A resumable upload (draft interop 8) replacing a file: its completion is the write
  await anyone('PUT', '/pub/film.bin', 'old film', 'application/octet-stream')
  const created = await anyone('PUT', '/pub/film.bin', undefined, 'application/octet-stream', {
    'content-type': 'application/octet-stream',
    'upload-draft-interop-version': '8',
    'upload-complete': '?0',
    'upload-length': '8',
  })
  await anyone('PATCH', new URL(created.headers.get('location')!).pathname, new TextEncoder().encode('new film'), 'application/partial-upload', {
    'upload-draft-interop-version': '8',
    'upload-complete': '?1',
    'upload-offset': '0',
  })
  expect(await (await fetch(url('/pub/film.bin'))).text()).toBe('new film')

  // A Solid app of the owner's (Solid-OIDC, DPoP), over LDP
  for (const [name, status] of [
    ['Ann', 201],
    ['Bob', 204],
  ] as const) {
    const res = await notes.fetch(url('/pub/app.ttl'), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: doc(name) })
    expect(res.status).toBe(status)
  }
  expect((await notes.fetch(url('/pub/app.ttl'), { method: 'DELETE' })).status).toBe(204)

  // A drive over WebDAV
  await dav('MKCOL', '/dav/')
  await dav('PUT', '/dav/put.txt', 'one')
  await dav('PUT', '/dav/put.txt', 'two')
  await dav('PUT', '/dav/del.txt', 'one')
  await dav('DELETE', '/dav/del.txt')
  await dav('PUT', '/dav/mv.txt', 'one')
  await dav('MOVE', '/dav/mv.txt', undefined, { destination: url('/dav/moved.txt') })
  await dav('PUT', '/dav/src.txt', 'source')
  await dav('PUT', '/dav/dst.txt', 'overwritten')
  await dav('COPY', '/dav/src.txt', undefined, { destination: url('/dav/dst.txt') })
  expect(await (await dav('GET', '/dav/dst.txt')).text()).toBe('source')

  // The owner's pages
  await form('/.admin/files/folder', { path: '/', name: 'dash' })
  await upload('/dash/', 'note.txt', 'first', false)
  await upload('/dash/', 'note.txt', 'second', true)
  await form('/.admin/files/edit', { path: '/dash/note.txt', type: 'text/plain', version: await editVersion('/dash/note.txt'), text: 'third' })
  await upload('/dash/', 'ren.txt', 'r', false)
  await form('/.admin/files/move', { path: '/dash/ren.txt', name: 'renamed.txt', folder: '/dash/' })
  await upload('/dash/', 'bin.txt', 'b', false)
  await form('/.admin/delete', { path: '/dash/bin.txt' })
  await upload('/dash/', 'forever.txt', 'f', false)
  await form('/.admin/delete', { path: '/dash/forever.txt', forever: 'yes' })
  await pod.stop()

  const store = await openStore(pod.dataDir)
  const kept = new Map<string, VersionRecord[]>()
  const creators = new Map<string, ChangeAuthor | undefined>()
  try {
    for await (const [key, record] of store.versions.iterator()) kept.set(pathOfVersionKey(key), [...(kept.get(pathOfVersionKey(key)) ?? []), record])
    for await (const [key, value] of store.versionTimes.iterator()) {
      if (isCreationTimeKey(key)) creators.set(key.split('\0')[1]!, (JSON.parse(value) as { by?: ChangeAuthor }).by)
    }
  } finally {
    await store.close()
  }
  const ends = (path: string) => (kept.get(path) ?? []).map(v => ({ end: v.end, by: v.by, ...(v.to ? { to: v.to } : {}) }))
  const PUBLIC: ChangeAuthor = { via: 'anonymous' }
  const DRIVE: ChangeAuthor = { agent: ownerWebId(), client: drive.id, via: 'Basic' }
  const APP: ChangeAuthor = { agent: ownerWebId(), client: notes.client.clientId, via: 'DPoP' }
  const DASHBOARD: ChangeAuthor = { agent: ownerWebId(), via: 'session' }

  expect(ends('/pub/put.ttl')).toEqual([{ end: 'update', by: PUBLIC }])
  expect(ends('/pub/n3.ttl')).toEqual([{ end: 'update', by: PUBLIC }])
  expect(ends('/pub/sparql.ttl')).toEqual([{ end: 'update', by: PUBLIC }])
  expect(ends('/pub/gone.txt')).toEqual([{ end: 'delete', by: PUBLIC }])
  expect(ends('/pub/film.bin')).toEqual([{ end: 'update', by: PUBLIC }])
  // A POST replaces nothing: who created the member is its creation record
  expect(posted).toBe('/pub/posted.ttl')
  expect(creators.get(posted)).toEqual(PUBLIC)

  expect(ends('/pub/app.ttl')).toEqual([
    { end: 'update', by: APP },
    { end: 'delete', by: APP },
  ])
  expect(creators.get('/pub/app.ttl')).toEqual(APP)

  expect(ends('/dav/put.txt')).toEqual([{ end: 'update', by: DRIVE }])
  expect(ends('/dav/del.txt')).toEqual([{ end: 'delete', by: DRIVE }])
  expect(ends('/dav/mv.txt')).toEqual([{ end: 'move', by: DRIVE, to: '/dav/moved.txt' }])
  // COPY with Overwrite deletes what was there first (RFC 4918 §9.8.4), as a DELETE of it would
  expect(ends('/dav/dst.txt')).toEqual([{ end: 'delete', by: DRIVE }])
  expect(creators.get('/dav/put.txt')).toEqual(DRIVE)

  expect(ends('/dash/note.txt')).toEqual([
    { end: 'update', by: DASHBOARD },
    { end: 'update', by: DASHBOARD },
  ])
  expect(ends('/dash/ren.txt')).toEqual([{ end: 'move', by: DASHBOARD, to: '/dash/renamed.txt' }])
  expect(ends('/dash/bin.txt')).toEqual([{ end: 'trash', by: DASHBOARD }])
  expect(ends('/dash/forever.txt')).toEqual([{ end: 'delete', by: DASHBOARD }])
  expect(creators.get('/dash/note.txt')).toEqual(DASHBOARD)
}, 120_000)
