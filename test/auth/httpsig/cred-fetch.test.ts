// HttpSig steps 4 and 6: remote key and credential documents through the fetcher — in parallel, once per document.

import { describe, expect, test } from 'bun:test'
import { makeHttpSigAuthenticator } from '../../../src/auth/httpsig/http-sig.ts'
import { parseAuthorization } from '../../../src/http/credentials.ts'
import type { FetchDoc, RemoteDoc } from '../../../src/fetch/guarded-fetch.ts'
import { HttpError } from '../../../src/http/errors.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { privateKeyOf, signedHeaders } from './sign-request.ts'
import { makeKey } from './key-fixture.ts'

const POD = 'https://pod.example'
const key = makeKey('ed25519')
const jwkLiteral = JSON.stringify(JSON.stringify(key.publicJwk))
const KEY_TRIPLE = (s: string) => `<${s}> <https://w3id.org/security#publicKeyJwk> ${jwkLiteral}^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#JSON>.`

function harness(docs: Record<string, string>, opts: { hold?: boolean } = {}) {
  const requested: string[] = []
  const waiting: (() => void)[] = []
  const fetchDoc: FetchDoc = async url => {
    requested.push(url)
    if (opts.hold) await new Promise<void>(r => waiting.push(r))
    const body = docs[url.split('#')[0]!]
    if (body === undefined) throw new HttpError(502, 'fetch_failed', `${url}: answered 404, expected 200`)
    return { url, contentType: 'text/turtle', body, fetchedAt: 0 } satisfies RemoteDoc
  }
  // Only pod URLs are read from the store; none are used here.
  const authenticate = makeHttpSigAuthenticator({
    baseUrl: POD,
    store: undefined as unknown as Store,
    fetchDoc,
    now: () => Date.now(),
    readableByPublic: async () => {
      throw new Error('no pod URL is read here')
    },
  })
  const run = async (keyid: string, cred?: string, signingKey = key.privateKey, created?: number) => {
    const headers = await signedHeaders(`${POD}/doc`, { key: signingKey, alg: 'ed25519', keyid, ...(cred ? { cred } : {}), ...(created ? { created } : {}) })
    const request = new Request(`${POD}/doc`, { headers })
    return authenticate(request, parseAuthorization(headers.authorization!)[0]!)
  }
  return { requested, waiting, run }
}

describe('HttpSig principal', () => {
  test('a did:key verification-method keyid becomes the did:key itself, without any fetch', async () => {
    const h = harness({})
    const did = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'
    const rfcKey = privateKeyOf({
      kty: 'OKP',
      crv: 'Ed25519',
      x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
      d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
    })
    expect(await h.run(`${did}#${did.slice(8)}`, undefined, rfcKey)).toEqual({ keys: [did], scheme: 'HttpSig', signedBody: { contentDigest: undefined } })
    expect(h.requested).toEqual([])
  })
})

describe('HttpSig cred', () => {
  test('a WebID profile that is also the key document is fetched once', async () => {
    const h = harness({ 'https://alice.example/card': `${KEY_TRIPLE('https://alice.example/card#key')} <#me> <http://www.w3.org/ns/auth/cert#key> <#key>.` })
    const p = await h.run('https://alice.example/card#key', 'https://alice.example/card#me')
    expect(p).toEqual({
      keys: ['https://alice.example/card#key'],
      webid: 'https://alice.example/card#me' as never,
      scheme: 'HttpSig',
      signedBody: { contentDigest: undefined },
    })
    expect(h.requested).toEqual(['https://alice.example/card'])
  })
  test('the key and the credential are fetched in parallel', async () => {
    const h = harness(
      {
        'https://keys.example/k': KEY_TRIPLE('https://keys.example/k#key'),
        'https://alice.example/card': '<#me> <http://www.w3.org/ns/auth/cert#key> <https://keys.example/k#key>.',
      },
      { hold: true },
    )
    const pending = h.run('https://keys.example/k#key', 'https://alice.example/card#me')
    while (h.requested.length < 2) await Bun.sleep(1)
    expect(h.requested.sort()).toEqual(['https://alice.example/card', 'https://keys.example/k'])
    for (const go of h.waiting) go()
    expect((await pending).webid).toBe('https://alice.example/card#me' as never)
  })
  test('a stale request fetches neither the key nor the credential', async () => {
    const h = harness({})
    let error: unknown
    try {
      await h.run('https://keys.example/k#key', 'https://alice.example/card#me', key.privateKey, Math.floor(Date.now() / 1000) - 120)
    } catch (e) {
      error = e
    }
    expect((error as HttpError).description).toContain('in the past')
    expect(h.requested).toEqual([])
  })
  test('an unreachable key document → 401 naming it', async () => {
    const h = harness({})
    let error: unknown
    try {
      await h.run('https://gone.example/k#key')
    } catch (e) {
      error = e
    }
    expect((error as HttpError).status).toBe(401)
    expect((error as HttpError).description).toContain('the key document could not be loaded: https://gone.example/k')
  })
})
