// HTTP Basic with a client credential (auth/basic-credential.ts): where it is refused before any password is read.

import { describe, expect, test } from 'bun:test'
import { withBasicCredential } from '../../src/auth/basic-credential.ts'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { HttpError } from '../../src/http/errors.ts'
import type { Store } from '../../src/store/open-store.ts'

/** The store is never reached by these refusals: it throws if it is. */
const store = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the store was read')
    },
  },
) as Store
const authenticate = (baseUrl: string) =>
  withBasicCredential(async () => ANONYMOUS, { baseUrl, store, now: () => 0, clientAddresses: { of: () => '203.0.113.9' } })
const basic = { authorization: `Basic ${btoa('script-x:secret')}` }

describe('RFC 7617 §4: Basic only where the password cannot be read on the way', () => {
  test('plain http to a host that is not this machine: 403 basic_over_http, nothing read', async () => {
    const err = await authenticate('http://pod.example')
      .call(null, new Request('http://pod.example/a', { headers: basic }))
      .catch(e => e)
    expect(err).toBeInstanceOf(HttpError)
    expect(err.status).toBe(403)
    expect(err.code).toBe('basic_over_http')
  })

  test.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'https://pod.example'])('%s: the password is read', async baseUrl => {
    // the proxy store throws once the credential is looked up: the transport check let it through
    await expect(authenticate(baseUrl)(new Request(`${baseUrl}/a`, { headers: basic }))).rejects.toThrow('the store was read')
  })

  test('another scheme, or none, goes to the inner authenticator', async () => {
    expect(await authenticate('http://pod.example')(new Request('http://pod.example/a'))).toBe(ANONYMOUS)
    expect(await authenticate('http://pod.example')(new Request('http://pod.example/a', { headers: { authorization: 'DPoP x' } }))).toBe(ANONYMOUS)
  })
})
