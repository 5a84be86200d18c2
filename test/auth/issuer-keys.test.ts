import { describe, expect, test } from 'bun:test'
import { makeIssuerKeyResolver, discoveryUrlOf } from '../../src/auth/issuer-keys.ts'
import type { FetchDoc, RemoteDoc } from '../../src/fetch/guarded-fetch.ts'
import type { HttpError } from '../../src/http/errors.ts'

const ISS = 'https://idp.example'
const doc = (url: string, body: unknown): RemoteDoc => ({ url, contentType: 'application/json', body: JSON.stringify(body), fetchedAt: 0 }) as RemoteDoc

/** A resolver whose network answers `discovery` for the OpenID configuration and `jwks` for the key set. */
const resolverWith = (discovery: unknown, jwks: unknown) => {
  const fetchDoc: FetchDoc = async url => doc(url, url === discoveryUrlOf(ISS) ? discovery : jwks)
  return makeIssuerKeyResolver({ baseUrl: 'https://pod.example', ownJwks: async () => ({ keys: [] }), fetchDoc, now: () => 0 })
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as HttpError,
  )

describe('OIDC Discovery §4: the keys of a remote issuer', () => {
  test.each([
    ['a configuration naming another issuer (§4.3)', { issuer: 'https://other.example', jwks_uri: `${ISS}/jwks` }, { keys: [] }],
    ['a configuration without jwks_uri', { issuer: ISS }, { keys: [] }],
    ['a key set without a keys array', { issuer: ISS, jwks_uri: `${ISS}/jwks` }, { nokeys: true }],
  ])('%s → 502 issuer_keys_unavailable', async (_, discovery, jwks) => {
    const err = await refusal(resolverWith(discovery, jwks)(ISS))
    expect({ status: err?.status, code: err?.code as string | undefined }).toEqual({ status: 502, code: 'issuer_keys_unavailable' })
  })
})
