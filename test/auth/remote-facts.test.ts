// Remote key documents and WebID profiles: parsed on the remote worker, and only their facts kept, as long as HTTP caching allows.

import { describe, expect, test } from 'bun:test'
import type { FetchDoc, FetchDocOptions, RemoteDoc } from '../../src/fetch/guarded-fetch.ts'
import { parseJobsSent } from '../../src/rdf/parse-off-thread.ts'
import { makeKeyResolver } from '../../src/auth/httpsig/key-lookup.ts'
import { makeWebIdIssuerResolver } from '../../src/auth/webid-issuers.ts'
import type { Store } from '../../src/store/open-store.ts'
import type { WebId } from '../../src/account/ids.ts'
import { keyDocument, makeKey } from './httpsig/key-fixture.ts'

let clock = 1_800_000_000_000

/** A network of documents, each fresh for `ttlMs`; counts what was fetched and the caps asked for. */
function network(docs: Record<string, string>, ttlMs = 60_000) {
  const fetched: string[] = []
  const caps: (number | undefined)[] = []
  const fetchDoc: FetchDoc = async (url: string, o: FetchDocOptions): Promise<RemoteDoc> => {
    const u = url.split('#')[0]!
    fetched.push(u)
    caps.push(o.maxBytes)
    const body = docs[u]
    if (body === undefined) throw new Error(`no document at ${u}`)
    return { url: u, contentType: 'text/turtle', body, fetchedAt: clock, expiresAt: clock + ttlMs }
  }
  return { fetchDoc, fetched, caps }
}

describe('a remote key document', () => {
  const key = makeKey('ecdsa-p256-sha256')
  const KEY = 'https://keys.example/k#key'
  test('is parsed on the remote worker once, capped at 64 KiB, and its facts serve every key and request until it expires', async () => {
    const net = network({
      'https://keys.example/k': `${keyDocument(key.publicJwk, 'https://alice.example/card#me')}\n<#other> <https://example.org/p> "${'x'.repeat(5000)}".`,
    })
    const resolver = makeKeyResolver({
      baseUrl: 'https://pod.example',
      store: undefined as unknown as Store,
      fetchDoc: net.fetchDoc,
      readableByPublic: async () => false,
      now: () => clock,
    })
    const parsed = parseJobsSent('remote')
    const first = await resolver.resolveKey(KEY)
    expect(await resolver.resolveKey(KEY)).toBe(first)
    await expect(resolver.resolveKey('https://keys.example/k#missing')).rejects.toThrow('no such key')
    expect(parseJobsSent('remote') - parsed).toBe(1)
    expect(net.fetched).toEqual(['https://keys.example/k'])
    expect(net.caps).toEqual([64 * 1024])
    const facts = await resolver.loadDocument('https://keys.example/k')
    expect([...facts.keys.keys()]).toEqual([KEY])
    expect(facts.weight).toBeLessThan(1000) // the 5 KB literal is not kept
    clock += 60_000
    await resolver.resolveKey(KEY)
    expect(net.fetched).toHaveLength(2)
    expect(parseJobsSent('remote') - parsed).toBe(2)
  })
})

describe('a remote WebID profile', () => {
  test('is parsed on the remote worker, capped at 256 KiB, and its issuer list kept until it expires', async () => {
    const net = network({ 'https://bob.example/card': '<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <https://op.example>.' }, 30_000)
    const issuersOf = makeWebIdIssuerResolver(net.fetchDoc, () => clock)
    const parsed = parseJobsSent('remote')
    expect(await issuersOf('https://bob.example/card#me' as WebId)).toEqual(['https://op.example'])
    expect(await issuersOf('https://bob.example/card#me' as WebId)).toEqual(['https://op.example'])
    expect(parseJobsSent('remote') - parsed).toBe(1)
    expect(net.caps).toEqual([256 * 1024])
    clock += 30_000
    await issuersOf('https://bob.example/card#me' as WebId)
    expect(net.fetched).toHaveLength(2)
  })
  test('our own profile (no expiry: read from the store) is read afresh every time, never on the remote worker', async () => {
    const fetchDoc: FetchDoc = async url => ({
      url: url.split('#')[0]!,
      contentType: 'text/turtle',
      body: '<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <https://pod.example>.',
      fetchedAt: clock,
    })
    let calls = 0
    const issuersOf = makeWebIdIssuerResolver(
      async (u, o) => {
        calls++
        return fetchDoc(u, o)
      },
      () => clock,
    )
    const parsed = parseJobsSent('remote')
    await issuersOf('https://pod.example/profile/card#me' as WebId)
    await issuersOf('https://pod.example/profile/card#me' as WebId)
    expect(calls).toBe(2)
    expect(parseJobsSent('remote')).toBe(parsed)
  })
})
