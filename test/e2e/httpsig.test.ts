// HttpSig end to end: two real pods over HTTP, keys made by `solopod keys add`, requests signed by an
// independent RFC 9421 implementation (npm http-message-signatures).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { writeTurtle } from './seed-store.ts'
import { startPod, type RunningPod } from './start-server.ts'
import { contentDigestOf, privateKeyOf, signedHeaders, type SignOptions } from '../auth/httpsig/sign-request.ts'
import { makeKey, readAcl } from '../auth/httpsig/key-fixture.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
const keysDir = mkdtempSync(join(tmpdir(), 'solopod-keys-'))
// RFC 9421 B.1.4 test-key-ed25519 and its did:key.
const RFC_ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
const RFC_ED25519_DID = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'

function addKey(dataDir: string, name: string) {
  const out = join(keysDir, `${name}-${Math.random().toString(36).slice(2)}.jwk`)
  const r = Bun.spawnSync([process.execPath, MAIN, 'keys', 'add', '--data', dataDir, '--name', name, '--out', out], { stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`keys add failed: ${r.stderr.toString()}`)
  return { out, stdout: r.stdout.toString() }
}

async function initPod(dataDir: string, baseUrl: string, docs: [string, string][] = []) {
  const store = await openStore(dataDir)
  try {
    await ensureOwner(store, baseUrl, Date.now())
    for (const [path, ttl] of docs) await writeTurtle(store, baseUrl, path, ttl)
  } finally {
    await store.close()
  }
}

let alice: RunningPod // the pod whose resources are read
let bob: RunningPod // another server hosting keys and a WebID
const files: Record<string, string> = {}
const k3 = makeKey('ecdsa-p256-sha256')

beforeAll(async () => {
  bob = await startPod({
    seed: async (dataDir, baseUrl) => {
      await initPod(dataDir, baseUrl)
      files.k1 = addKey(dataDir, 'k1').out
      files.k2 = addKey(dataDir, 'k2').out
    },
  })
  alice = await startPod({
    seed: async (dataDir, baseUrl) => {
      const B = bob.baseUrl
      const doc = (p: string): [string, string] => [p, '<#it> <http://purl.org/dc/terms/title> "secret".']
      await initPod(dataDir, baseUrl, [
        doc('/shared/abs'),
        [`/shared/abs.acl`, readAcl(`${baseUrl}/shared/abs`, `acl:agent [ cert:key <${B}/keys/k1#key> ]`)],
        doc('/shared/rel'),
        [`/shared/rel.acl`, readAcl(`${baseUrl}/shared/rel`, 'acl:agent [ cert:key </keys/local#key> ]')],
        doc('/shared/did'),
        [`/shared/did.acl`, readAcl(`${baseUrl}/shared/did`, `acl:agent <${RFC_ED25519_DID}>`)],
        doc('/shared/group'),
        [`/shared/group.acl`, readAcl(`${baseUrl}/shared/group`, 'acl:agentGroup </groups/team#g>')],
        [
          '/groups/team',
          `<#g> a <http://www.w3.org/2006/vcard/ns#Group>; <http://www.w3.org/2006/vcard/ns#hasMember> [ <http://www.w3.org/ns/auth/cert#key> <${B}/keys/k2#key> ].`,
        ],
        doc('/shared/webid'),
        [`/shared/webid.acl`, readAcl(`${baseUrl}/shared/webid`, `acl:agent <${B}/profile/card#me>`)],
        doc('/shared/k3'),
        [`/shared/k3.acl`, readAcl(`${baseUrl}/shared/k3`, 'acl:agent [ cert:key </keys/k3#key> ]')],
      ])
      const local = addKey(dataDir, 'local')
      files.local = local.out
      files.localStdout = local.stdout
    },
  })
}, 60_000)
afterAll(async () => {
  await alice?.dispose()
  await bob?.dispose()
  rmSync(keysDir, { recursive: true, force: true })
})

const keyFile = (name: string) => JSON.parse(readFileSync(files[name]!, 'utf8')) as Record<string, unknown>
const bobKey = (name: 'k1' | 'k2'): Pick<SignOptions, 'key' | 'alg' | 'keyid'> => ({
  key: privateKeyOf(keyFile(name)),
  alg: 'ecdsa-p256-sha256',
  keyid: `${bob.baseUrl}/keys/${name}#key`,
})
const localKey = (): Pick<SignOptions, 'key' | 'alg' | 'keyid'> => ({ key: privateKeyOf(keyFile('local')), alg: 'ecdsa-p256-sha256', keyid: '/keys/local#key' })

const ACCEPT_SIGNATURE = 'sig1=("@method" "@target-uri" "authorization");created;nonce'
const ACCEPT_SIGNATURE_WITH_CONTENT = 'sig1=("@method" "@target-uri" "authorization" "content-digest");created;nonce'

/** Signs with the independent library; a string body is digested (RFC 9530, sha-256) and covered unless `o` says otherwise. */
async function signed(path: string, o: Pick<SignOptions, 'key' | 'alg' | 'keyid'> & Partial<SignOptions>, init: RequestInit = {}) {
  const url = `${alice.baseUrl}${path}`
  const body = typeof init.body === 'string' ? { body: init.body } : {}
  const headers = await signedHeaders(url, { method: init.method ?? 'GET', ...body, ...o, headers: (init.headers ?? {}) as Record<string, string> })
  return fetch(url, { ...init, headers })
}

async function expect401(res: Response, reason: string, acceptSignature = ACCEPT_SIGNATURE) {
  expect(res.status).toBe(401)
  expect(res.headers.get('www-authenticate')).toContain(`HttpSig realm="${new URL(res.url).pathname}", error="invalid_signature"`)
  expect(res.headers.get('accept-signature')).toBe(acceptSignature)
  expect(await res.text()).toContain(reason)
}

describe('HttpSig H1: the 401 invites a signature', () => {
  test('an anonymous GET answers every challenge, Accept-Signature and the ACL link', async () => {
    const res = await fetch(`${alice.baseUrl}/shared/abs`)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('HttpSig realm="/shared/abs"')
    expect(res.headers.get('www-authenticate')).toContain('DPoP algs=')
    expect(res.headers.get('accept-signature')).toBe(ACCEPT_SIGNATURE)
    expect(res.headers.get('link')).toContain(`<${alice.baseUrl}/shared/abs.acl>; rel="acl"`)
  })
})

describe('ACL subjects by key, over real HTTP', () => {
  test('cert:key with an absolute URL on another pod', async () => {
    const res = await signed('/shared/abs', bobKey('k1'))
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('secret')
  })
  test('cert:key with a relative URL on this pod (relative keyid)', async () => {
    expect((await signed('/shared/rel', localKey())).status).toBe(200)
  })
  test('a signed HEAD: its @method is HEAD, though a GET answers it', async () => {
    const res = await signed('/shared/rel', localKey(), { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
  })
  test('did:key, decoded locally', async () => {
    expect((await signed('/shared/did', { key: privateKeyOf(RFC_ED25519), alg: 'ed25519', keyid: RFC_ED25519_DID })).status).toBe(200)
  })
  test('a group with vcard:hasMember [ cert:key <K> ]', async () => {
    expect((await signed('/shared/group', bobKey('k2'))).status).toBe(200)
    expect((await signed('/shared/group', bobKey('k1'))).status).toBe(403)
  })
  test('a key the rule does not name → 403', async () => {
    expect((await signed('/shared/abs', bobKey('k2'))).status).toBe(403)
  })
  test("cred with a WebID profile linking the key → the WebID's rules apply", async () => {
    expect((await signed('/shared/webid', bobKey('k1'))).status).toBe(403)
    expect((await signed('/shared/webid', { ...bobKey('k1'), cred: `${bob.baseUrl}/profile/card#me` })).status).toBe(200)
    // a valid signature by a key the profile does not link cannot claim the WebID
    await expect401(
      await signed('/shared/webid', { key: privateKeyOf(RFC_ED25519), alg: 'ed25519', keyid: RFC_ED25519_DID, cred: `${bob.baseUrl}/profile/card#me` }),
      'does not link the signing key',
    )
  })
})

describe('tampering and replay → 401', () => {
  const send = async (path: string, headers: Record<string, string>, method = 'GET') => fetch(`${alice.baseUrl}${path}`, { method, headers })
  test('method', async () => {
    const h = await signedHeaders(`${alice.baseUrl}/shared/abs`, { ...bobKey('k1'), method: 'GET' })
    await expect401(await send('/shared/abs', h, 'DELETE'), 'does not verify')
  })
  test('path', async () => {
    const h = await signedHeaders(`${alice.baseUrl}/shared/rel`, bobKey('k1'))
    await expect401(await send('/shared/abs', h), 'does not verify')
  })
  test('authorization header', async () => {
    const h = await signedHeaders(`${alice.baseUrl}/shared/abs`, bobKey('k1'))
    await expect401(await send('/shared/abs', { ...h, authorization: `HttpSig proof=sig1, cred="<${bob.baseUrl}/profile/card#me>"` }), 'does not verify')
  })
  test('signature', async () => {
    const h = await signedHeaders(`${alice.baseUrl}/shared/abs`, bobKey('k1'))
    const sig = h.Signature!
    await expect401(await send('/shared/abs', { ...h, Signature: `${sig.slice(0, 10)}${sig[10] === 'x' ? 'y' : 'x'}${sig.slice(11)}` }), 'does not verify')
  })
  test('a replayed nonce', async () => {
    const h = await signedHeaders(`${alice.baseUrl}/shared/abs`, bobKey('k1'))
    expect((await send('/shared/abs', h)).status).toBe(200)
    await expect401(await send('/shared/abs', h), 'nonce was already used')
  })
})

describe('key documents: the owner manages keys under WAC; a revoked key stops verifying', () => {
  const owner = () => ({ ...localKey(), cred: `${alice.baseUrl}/profile/card#me` })
  test('solopod keys add wrote the private JWK with mode 0600 and a public key document', async () => {
    expect(statSync(files.local!).mode & 0o777).toBe(0o600)
    expect(keyFile('local').d).toBeString()
    expect(files.localStdout).toContain(`${alice.baseUrl}/keys/local#key`)
    const res = await fetch(`${alice.baseUrl}/keys/local`, { headers: { accept: 'application/ld+json' } })
    expect(res.status).toBe(200) // /keys/ is public read
    const doc = (await res.json()) as Record<string, Record<string, unknown>>
    expect(doc.publicKeyJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(doc.publicKeyJwk!.d).toBeUndefined()
  })
  test('anyone else cannot write in /keys/', async () => {
    const res = await fetch(`${alice.baseUrl}/keys/evil`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })
    expect(res.status).toBe(401)
    expect((await signed('/keys/evil', bobKey('k1'), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })).status).toBe(403)
  })
  test('POST a key to /keys/, sign with it, DELETE it, and it no longer verifies', async () => {
    await expect401(await signed('/shared/k3', { key: k3.privateKey, alg: 'ecdsa-p256-sha256', keyid: '/keys/k3#key' }), 'no such key')
    const body = JSON.stringify({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: '#key',
      type: 'JsonWebKey2020',
      controller: `${alice.baseUrl}/profile/card#me`,
      publicKeyJwk: k3.publicJwk,
    })
    const created = await signed('/keys/', owner(), { method: 'POST', headers: { 'content-type': 'application/ld+json', slug: 'k3' }, body })
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`${alice.baseUrl}/keys/k3`)
    expect((await signed('/shared/k3', { key: k3.privateKey, alg: 'ecdsa-p256-sha256', keyid: '/keys/k3#key' })).status).toBe(200)
    expect((await signed('/keys/k3', owner(), { method: 'DELETE' })).status).toBeOneOf([200, 204, 205])
    await expect401(await signed('/shared/k3', { key: k3.privateKey, alg: 'ecdsa-p256-sha256', keyid: '/keys/k3#key' }), 'no such key')
  })
  test('a private key is refused when written', async () => {
    const res = await signed('/keys/leak', owner(), {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: `<#key> <https://w3id.org/security#publicKeyJwk> ${JSON.stringify(JSON.stringify(keyFile('local')))}^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON>.`,
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('private member "d"')
  })
})

describe('RFC 9530 Content-Digest: a signed request with content covers its body', () => {
  const owner = () => ({ ...localKey(), cred: `${alice.baseUrl}/profile/card#me` })
  const turtle = (title: string) => `<#it> <http://purl.org/dc/terms/title> "${title}".`
  const TURTLE = { 'content-type': 'text/turtle' }
  /** A signed PUT of `body`; `o` can sign other bytes (`body`), another digest, or none (`digest: null`). */
  const put = (path: string, body: BodyInit, o: Partial<SignOptions> = {}) => signed(path, { ...owner(), ...o }, { method: 'PUT', headers: TURTLE, body })
  const readBack = async (path: string) => {
    const res = await signed(path, owner(), { headers: { accept: 'text/turtle' } })
    return { status: res.status, text: await res.text() }
  }
  const refused = (reason: string) => async (res: Response) => {
    await expect401(res, reason, ACCEPT_SIGNATURE_WITH_CONTENT)
    expect(res.headers.get('link')).toContain('rel="acl"')
  }
  const MISSING = 'must send Content-Digest (RFC 9530, sha-256 or sha-512) and the signature must cover the whole content-digest field'

  test('a signed PUT with a body whose signature does not cover content-digest → 401 invalid_signature, nothing written', async () => {
    await refused(MISSING)(await put('/digest/none', turtle('unsigned body'), { digest: null }))
    // a Content-Digest that is sent but not signed is no better: anyone on the way could rewrite both
    await refused(MISSING)(
      await put('/digest/none', turtle('unsigned body'), { headers: { ...TURTLE, 'content-digest': contentDigestOf(turtle('unsigned body')) }, digest: null }),
    )
    expect((await readBack('/digest/none')).status).toBe(404)
  })
  test('a body swapped after signing → 401 invalid_signature, nothing written', async () => {
    const swapped = await put('/digest/swapped', turtle('evil'), { body: turtle('what was signed') })
    await refused('the body does not match the signed Content-Digest (sha-256)')(swapped)
    expect((await readBack('/digest/swapped')).status).toBe(404)
  })
  test('a body swapped on an existing resource → 401, the resource keeps its content', async () => {
    expect((await put('/digest/kept', turtle('original'))).status).toBe(201)
    await refused('does not match the signed Content-Digest')(await put('/digest/kept', turtle('evil'), { body: turtle('replacement') }))
    const after = await readBack('/digest/kept')
    expect(after.text).toContain('original')
    expect(after.text).not.toContain('evil')
  })
  test.each(['sha-256', 'sha-512'] as const)('a signed PUT covering a matching content-digest (%s) → 201, the body is stored', async digest => {
    const res = await put(`/digest/ok-${digest}`, turtle(`signed with ${digest}`), { digest })
    expect(res.status).toBe(201)
    expect((await readBack(`/digest/ok-${digest}`)).text).toContain(`signed with ${digest}`)
  })
  test('a Content-Digest with both algorithms: both must match', async () => {
    const body = turtle('both')
    const both = `${contentDigestOf(body, 'sha-256')}, ${contentDigestOf(turtle('other'), 'sha-512')}`
    const res = await signed(
      '/digest/both',
      { ...owner(), digest: null, fields: ['@method', '@target-uri', 'authorization', 'content-digest'] },
      { method: 'PUT', headers: { ...TURTLE, 'content-digest': both }, body },
    )
    await refused('does not match the signed Content-Digest (sha-512)')(res)
    expect((await readBack('/digest/both')).status).toBe(404)
  })
  test('a chunked body (no Content-Length) is checked as it is read: without a digest → 401, with one → 201', async () => {
    // A pulled stream of unknown length: fetch sends it with Transfer-Encoding: chunked (a Blob's stream would get a Content-Length)
    const stream = (text: string) => {
      let sent = false
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent) c.close()
          else {
            sent = true
            c.enqueue(new TextEncoder().encode(text))
          }
        },
      })
    }
    const noDigest = await put('/digest/chunked', stream(turtle('chunked')), { digest: null })
    await refused(MISSING)(noDigest)
    expect((await readBack('/digest/chunked')).status).toBe(404)
    const withDigest = await put('/digest/chunked', stream(turtle('chunked')), { body: turtle('chunked') })
    expect(withDigest.status).toBe(201)
    expect((await readBack('/digest/chunked')).text).toContain('chunked')
  })
  test('a resumable upload made, queried and completed with signed requests: HEAD on the upload resource verifies as PATCH does', async () => {
    const draft = (complete: boolean) => ({ 'upload-draft-interop-version': '8', 'upload-complete': complete ? '?1' : '?0' })
    const created = await signed('/shared/resumed.bin', owner(), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'upload-length': '10', ...draft(false) },
    })
    expect(created.status).toBe(201)
    const upload = new URL(created.headers.get('location')!).pathname
    const append = (offset: number, body: string, complete: boolean) =>
      signed(upload, owner(), {
        method: 'PATCH',
        headers: { 'content-type': 'application/partial-upload', 'upload-offset': String(offset), ...draft(complete) },
        body,
      })
    expect((await append(0, 'hello', false)).status).toBe(204)
    const head = await signed(upload, owner(), { method: 'HEAD' })
    expect(head.status).toBe(204)
    expect(head.headers.get('upload-offset')).toBe('5')
    expect((await append(5, 'world', true)).status).toBe(201)
    expect((await signed('/shared/resumed.bin', owner())).status).toBe(200)
  })
  test('an empty PUT (Content-Length: 0) needs no digest', async () => {
    expect((await put('/digest/empty', '', { digest: null })).status).toBe(201)
  })
  test('a signed GET without a body needs no digest', async () => {
    const res = await signed('/shared/abs', bobKey('k1'))
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('secret')
  })
  test('the anonymous 401 for a request with content asks for content-digest; for one without, not', async () => {
    const withBody = await fetch(`${alice.baseUrl}/digest/anon`, { method: 'PUT', headers: TURTLE, body: turtle('anonymous') })
    expect(withBody.status).toBe(401)
    expect(withBody.headers.get('www-authenticate')).toContain('HttpSig realm="/digest/anon"')
    expect(withBody.headers.get('accept-signature')).toBe(ACCEPT_SIGNATURE_WITH_CONTENT)
    expect((await fetch(`${alice.baseUrl}/digest/anon`, { method: 'DELETE' })).headers.get('accept-signature')).toBe(ACCEPT_SIGNATURE)
  })
})
