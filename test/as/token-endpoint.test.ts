import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose'
import { dpopProof, newDpopKey, withToken } from '../op/op-fixture.ts'
import {
  BASE,
  BOB,
  BOB_APP,
  BOB_OP,
  bobIdToken,
  bobToken,
  exchange,
  ID_TOKEN_FORMAT,
  openUmaPod,
  OTHER_SHARED,
  PRIVATE,
  profileTurtle,
  SHARED,
  ticketFor,
  UMA_GRANT,
  type UmaPod,
} from './uma-fixture.ts'

let u: UmaPod
beforeAll(async () => {
  u = await openUmaPod()
})
afterAll(() => u.pod.close())

type Body = Record<string, unknown>

/** Status, error code, a description, and no token in the answer. */
async function refused(res: Response, status: number, code: string): Promise<Body> {
  const body = (await res.json()) as Body
  expect({ status: res.status, error: body.error }).toEqual({ status, error: code })
  expect(typeof body.error_description).toBe('string')
  expect(body.access_token).toBeUndefined()
  expect(res.headers.get('cache-control')).toBe('no-store')
  return body
}

/** UMA Grant §3.3.6 need_info: required_claims and a fresh ticket, which replaces the one sent. */
async function needInfo(res: Response, sent: string, description?: RegExp): Promise<Body> {
  const body = await refused(res, 403, 'need_info')
  expect(body.required_claims).toEqual([{ claim_token_format: [ID_TOKEN_FORMAT], name: 'webid', friendly_name: 'WebID' }])
  expect(body.ticket).toMatch(/^[\w-]+\.[\w-]{22}$/)
  expect(body.ticket).not.toBe(sent)
  if (description) expect(body.error_description as string).toMatch(description)
  // the sent ticket is not spent (issue 33: an unverified claim costs the pod no store write); the fresh one is another value
  expect(await u.pod.deps.tickets.get(sent)).toBeDefined()
  return body
}

describe('UMA Grant §2: /.well-known/uma2-configuration (E5)', () => {
  test('names the issuer byte for byte, the token endpoint, the grant type, jwks_uri and the ID-token profile', async () => {
    const res = await u.pod.request('/.well-known/uma2-configuration')
    expect(res.status).toBe(200)
    const meta = (await res.json()) as Body
    expect(meta).toMatchObject({
      issuer: BASE,
      token_endpoint: `${BASE}/.uma/token`,
      jwks_uri: `${BASE}/.uma/jwks`,
      grant_types_supported: [UMA_GRANT],
      uma_profiles_supported: [ID_TOKEN_FORMAT],
      claim_token_profiles_supported: [ID_TOKEN_FORMAT],
    })
    const challenge = (await u.pod.request(PRIVATE)).headers.get('www-authenticate')!
    expect(challenge).toContain(`as_uri="${meta.issuer}"`)
  })
  test('is readable cross-origin (CORS) by a browser app', async () => {
    const res = await u.pod.request('/.well-known/uma2-configuration', { headers: { origin: 'https://app.example' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
  })
  test('the token endpoint answers a CORS preflight for DPoP and form posts', async () => {
    const res = await u.pod.request('/.uma/token', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'dpop, content-type' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('dpop')
  })
})

describe('UMA Grant §3.3: ticket + ID token + DPoP proof → access token (E9)', () => {
  test("issues a 5-minute Bearer token bound to the proof key, for exactly the ticket's resource and modes", async () => {
    const ticket = await ticketFor(u.pod, SHARED)
    const res = await exchange(u, { ticket, claimToken: await bobIdToken(u), headers: { origin: 'https://app.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    const body = (await res.json()) as Body
    expect({ token_type: body.token_type, expires_in: body.expires_in }).toEqual({ token_type: 'Bearer', expires_in: 300 })
    const token = body.access_token as string
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({
      iss: BASE,
      sub: BOB,
      azp: BOB_APP,
      aud: BASE,
      cnf: { jkt: u.bobKey.jkt },
      permissions: [{ resource_id: BASE + SHARED, resource_scopes: ['read'] }],
    })
    expect(claims.exp! - claims.iat!).toBe(300)
    // signed by a key in jwks_uri
    const { kid } = decodeProtectedHeader(token)
    const jwks = (await (await u.pod.request('/.uma/jwks')).json()) as { keys: { kid: string }[] }
    expect(jwks.keys.map(k => k.kid)).toContain(kid!)
    // consumed: the same ticket never yields a second token
    await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
  })
  test("a ticket is spent once, whatever spelling of its seal comes back (the last base64url character's unread bits)", async () => {
    const ticket = await ticketFor(u.pod, SHARED)
    const last = ticket.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    // the same 16 bytes, spelled 15 other ways
    const spellings = [...alphabet].filter(c => c !== last && alphabet.indexOf(c) >> 4 === alphabet.indexOf(last) >> 4).map(c => ticket.slice(0, -1) + c)
    expect(spellings).toHaveLength(15)
    expect((await exchange(u, { ticket, claimToken: await bobIdToken(u) })).status).toBe(200)
    for (const other of spellings) await refused(await exchange(u, { ticket: other, claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
  })
  test('accepts the https spelling of the ID-token format too', async () => {
    const res = await exchange(u, {
      ticket: await ticketFor(u.pod, SHARED),
      claimToken: await bobIdToken(u),
      format: ID_TOKEN_FORMAT.replace('http:', 'https:'),
    })
    expect(res.status).toBe(200)
  })
  test('a ticket for a POST names Append on the container, and the token covers just that', async () => {
    const token = await bobToken(u, '/shared/', 'POST')
    expect(decodeJwt(token).permissions).toEqual([{ resource_id: `${BASE}/shared/`, resource_scopes: ['append'] }])
  })
})

describe('UMA Grant §3.3.6 and the Solid-OIDC Primer request flow: every refusal issues nothing', () => {
  test('request_denied: valid identity, no permission (403)', async () => {
    const ticket = await ticketFor(u.pod, PRIVATE)
    const body = await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u) }), 403, 'request_denied')
    expect(body.error_description as string).toContain(BOB)
    expect(body.ticket).toBeUndefined()
    await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
  })

  test.each([
    ['missing grant_type', { fields: { grant_type: '' } }, 'invalid_request'],
    ['another grant_type', { fields: { grant_type: 'authorization_code' } }, 'unsupported_grant_type'],
    ['missing ticket', { ticket: undefined }, 'invalid_request'],
  ] as const)('%s → 400', async (_what, e, code) => {
    const ticket = await ticketFor(u.pod, SHARED)
    await refused(
      await exchange(u, { ticket, claimToken: await bobIdToken(u), ...e }),
      400,
      code === 'unsupported_grant_type' ? 'unsupported_grant_type' : 'invalid_request',
    )
  })

  describe('ticket faults → 400 invalid_grant', () => {
    test('unknown ticket', async () => {
      await refused(await exchange(u, { ticket: 'AAAAAAAAAAAAAAAAAAAAAA', claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
    })
    test('tampered ticket (one character changed)', async () => {
      const t = await ticketFor(u.pod, SHARED)
      const tampered = (t[0] === 'A' ? 'B' : 'A') + t.slice(1)
      await refused(await exchange(u, { ticket: tampered, claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
    })
    test('not a ticket at all', async () => {
      await refused(await exchange(u, { ticket: 'x'.repeat(500), claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
    })
    test('expired ticket (older than 5 minutes)', async () => {
      const ticket = await ticketFor(u.pod, SHARED)
      u.pod.clock.now += 5 * 60_000 + 1
      try {
        await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
      } finally {
        u.pod.clock.now -= 5 * 60_000 + 1
      }
    })
    test('reused ticket', async () => {
      const ticket = await ticketFor(u.pod, SHARED)
      expect((await exchange(u, { ticket, claimToken: await bobIdToken(u) })).status).toBe(200)
      await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u) }), 400, 'invalid_grant')
    })
    test('two concurrent exchanges of one ticket: exactly one token', async () => {
      const ticket = await ticketFor(u.pod, SHARED)
      const [a, b] = await Promise.all([exchange(u, { ticket, claimToken: await bobIdToken(u) }), exchange(u, { ticket, claimToken: await bobIdToken(u) })])
      expect([a.status, b.status].sort()).toEqual([200, 400])
    })
  })

  describe('claim_token_format → 400 invalid_request (the ticket stays usable)', () => {
    test('another format', async () => {
      const ticket = await ticketFor(u.pod, SHARED)
      await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u), format: 'urn:ietf:params:oauth:token-type:jwt' }), 400, 'invalid_request')
      expect((await exchange(u, { ticket, claimToken: await bobIdToken(u) })).status).toBe(200)
    })
    test('a claim token without its format', async () => {
      await refused(await exchange(u, { ticket: await ticketFor(u.pod, SHARED), claimToken: await bobIdToken(u), format: undefined }), 400, 'invalid_request')
    })
  })

  describe('RFC 9449 §4.3 proof faults → 400 invalid_dpop_proof', () => {
    test.each([
      ['no DPoP header', { dpop: null }],
      ['htu of another endpoint', { proof: { claims: { htu: `${BASE}/.oidc/token` } } }],
      ['htu on another origin', { proof: { claims: { htu: 'http://localhost:4000/.uma/token' } } }],
      ['htm GET', { proof: { claims: { htm: 'GET' } } }],
      ['stale iat', { proof: { iat: 1 } }],
      ['a signature that does not verify', { dpop: 'FORGED' }],
    ] as const)('%s', async (_what, e) => {
      const ticket = await ticketFor(u.pod, SHARED)
      const claimToken = await bobIdToken(u)
      let dpop: string | null | undefined = (e as { dpop?: string | null }).dpop
      if (dpop === 'FORGED') {
        const good = await dpopProof(u.bobKey, 'POST', `${BASE}/.uma/token`, u.pod.clock.now)
        const other = await dpopProof(await newDpopKey(), 'POST', `${BASE}/.uma/token`, u.pod.clock.now)
        dpop = `${good.split('.').slice(0, 2).join('.')}.${other.split('.')[2]}`
      }
      await refused(await exchange(u, { ticket, claimToken, ...e, dpop }), 400, 'invalid_dpop_proof')
    })
    test('a replayed proof (same jti)', async () => {
      const proof = await dpopProof(u.bobKey, 'POST', `${BASE}/.uma/token`, u.pod.clock.now)
      expect((await exchange(u, { ticket: await ticketFor(u.pod, SHARED), claimToken: await bobIdToken(u), dpop: proof })).status).toBe(200)
      await refused(await exchange(u, { ticket: await ticketFor(u.pod, SHARED), claimToken: await bobIdToken(u), dpop: proof }), 400, 'invalid_dpop_proof')
    })
  })

  describe('claims that cannot be verified → 403 need_info with required_claims and a fresh ticket', () => {
    const cases: [string, () => Promise<string | undefined>, RegExp][] = [
      ['no claim token', async () => undefined, /claim_token is missing/],
      ['a claim token that is not a JWT', async () => 'not-a-jwt', /not a JWT/],
      ['an ID token without exp', () => bobIdToken(u, { claims: { exp: undefined } }), /no numeric exp/],
      ['an expired ID token', () => bobIdToken(u, { claims: { exp: Math.floor(u.pod.clock.now / 1000) - 3600 } }), /expired/],
      ["an ID token bound to another key than the proof's", () => bobIdToken(u, { claims: { cnf: { jkt: 'x'.repeat(43) } } }), /cnf\.jkt/],
      ['an ID token without cnf', () => bobIdToken(u, { claims: { cnf: undefined } }), /cnf\.jkt/],
      ['an ID token whose kid is absent', () => bobIdToken(u, { header: { kid: undefined } }), /no kid/],
      [
        'an ID token signed by a key not in the JWKS',
        async () => bobIdToken(u, { key: (await generateKeyPair('ES256')).privateKey }),
        /signature does not verify/,
      ],
      ['an ID token whose kid is not in the JWKS', () => bobIdToken(u, { header: { kid: 'op-2' } }), /no key of issuer/],
      ['an ID token without "solid" in aud', () => bobIdToken(u, { claims: { aud: [BOB_APP] } }), /aud must contain "solid"/],
      ['an ID token without azp', () => bobIdToken(u, { claims: { azp: undefined } }), /no azp/],
      ['an issuer the WebID does not name', () => bobIdToken(u, { claims: { webid: 'https://dave.example/profile/card#me' } }), /not a solid:oidcIssuer/],
      [
        'an issuer whose keys cannot be had (the WebID profile is not read then)',
        () => bobIdToken(u, { claims: { iss: 'https://evil.example' } }),
        /evil\.example/,
      ],
      ['a WebID on plain http (not localhost)', () => bobIdToken(u, { claims: { webid: 'http://bob.example/profile/card#me' } }), /must be an https URL/],
    ]
    test.each(cases)('%s', async (_what, make, description) => {
      const ticket = await ticketFor(u.pod, SHARED)
      await needInfo(await exchange(u, { ticket, claimToken: await make() }), ticket, description)
    })

    test('a stranger exchanging a free ticket without claims in a loop spends nothing (no store write); the honest exchange then succeeds (issue 33)', async () => {
      const before = u.pod.deps.tickets.spent
      let ticket = await ticketFor(u.pod, SHARED)
      for (let i = 0; i < 50; i++) {
        const body = await refused(await exchange(u, { ticket, claimToken: undefined }), 403, 'need_info')
        ticket = body.ticket as string
      }
      expect(u.pod.deps.tickets.spent).toBe(before)
      expect((await exchange(u, { ticket, claimToken: await bobIdToken(u) })).status).toBe(200)
    })

    test('a refused exchange gives its proof back: junk takes no room in the replay memory, and the client may retry with it', async () => {
      const proof = await dpopProof(u.bobKey, 'POST', `${BASE}/.uma/token`, u.pod.clock.now)
      const refusal = await exchange(u, {
        ticket: await ticketFor(u.pod, SHARED),
        claimToken: await bobIdToken(u, { key: (await generateKeyPair('ES256')).privateKey }),
        dpop: proof,
      })
      expect(refusal.status).toBe(403)
      const { error, ticket } = (await refusal.json()) as { error: string; ticket: string }
      expect(error).toBe('need_info')
      expect((await exchange(u, { ticket, claimToken: await bobIdToken(u), dpop: proof })).status).toBe(200)
      // used once it succeeded
      await refused(await exchange(u, { ticket: await ticketFor(u.pod, SHARED), claimToken: await bobIdToken(u), dpop: proof }), 400, 'invalid_dpop_proof')
    })

    test('the fresh ticket of need_info leads to a token once the claims are right', async () => {
      const ticket = await ticketFor(u.pod, SHARED)
      const body = await needInfo(await exchange(u, { ticket, claimToken: await bobIdToken(u, { claims: { exp: 1 } }) }), ticket)
      expect((await exchange(u, { ticket: body.ticket as string, claimToken: await bobIdToken(u) })).status).toBe(200)
    })
    test('the same ID token with another DPoP key', async () => {
      const ticket = await ticketFor(u.pod, SHARED)
      await needInfo(await exchange(u, { ticket, claimToken: await bobIdToken(u), key: await newDpopKey() }), ticket, /cnf\.jkt/)
    })
  })

  // A document that never answers is cut off by the fetcher's timeout (300 ms here): without it, the test would time out.
  describe('remote documents that fail → 403 need_info, without hanging', () => {
    const swap = async (url: string, doc: { body: string; type: string; status?: number; delayMs?: number } | undefined, run: () => Promise<void>) => {
      const before = u.pod.docs.get(url)
      if (doc) u.pod.docs.set(url, doc)
      else u.pod.docs.delete(url)
      try {
        await run()
      } finally {
        if (before) u.pod.docs.set(url, before)
        else u.pod.docs.delete(url)
      }
    }
    // Each case uses its own WebID/issuer host so the fetcher's cache of the good documents does not answer.
    let n = 0
    async function viaFreshBob(
      change: (profile: string, op: string) => [string, { body: string; type: string; status?: number; delayMs?: number } | undefined],
      description: RegExp,
    ) {
      n++
      const profile = `https://bob${n}.example/profile/card`
      const op = `https://op${n}.example`
      u.pod.docs.set(profile, { body: profileTurtle(op), type: 'text/turtle' })
      u.pod.docs.set(`${op}/.well-known/openid-configuration`, { body: JSON.stringify({ issuer: op, jwks_uri: `${op}/jwks` }), type: 'application/json' })
      u.pod.docs.set(`${op}/jwks`, { body: JSON.stringify({ keys: [u.opJwk] }), type: 'application/json' })
      const [url, doc] = change(profile, op)
      await swap(url, doc, async () => {
        const ticket = await ticketFor(u.pod, SHARED)
        const claimToken = await bobIdToken(u, { claims: { webid: `${profile}#me`, sub: `${profile}#me`, iss: op } })
        await needInfo(await exchange(u, { ticket, claimToken }), ticket, description)
      })
    }
    test('WebID profile unreachable (404)', () => viaFreshBob(p => [p, undefined], /WebID profile .* could not be read/))
    test('WebID profile not RDF', () => viaFreshBob(p => [p, { body: '<html></html>', type: 'text/html' }], /could not be read/))
    test('WebID profile without solid:oidcIssuer', () =>
      viaFreshBob(p => [p, { body: '<#me> a <http://xmlns.com/foaf/0.1/Person>.', type: 'text/turtle' }], /the profile lists none/))
    test("WebID profile slow (past the fetcher's timeout)", () =>
      viaFreshBob(p => [p, { body: profileTurtle(BOB_OP), type: 'text/turtle', delayMs: Infinity }], /could not be read/))
    test('issuer discovery unreachable', () =>
      viaFreshBob((_p, op) => [`${op}/.well-known/openid-configuration`, undefined], /keys of issuer .* could not be read/))
    test('issuer discovery slow', () =>
      viaFreshBob(
        (_p, op) => [`${op}/.well-known/openid-configuration`, { body: '{}', type: 'application/json', delayMs: Infinity }],
        /keys of issuer .* could not be read/,
      ))
    test('JWKS unreachable', () =>
      viaFreshBob((_p, op) => [`${op}/jwks`, { body: 'gone', type: 'text/plain', status: 500 }], /keys of issuer .* could not be read/))
    test('JWKS slow', () =>
      viaFreshBob((_p, op) => [`${op}/jwks`, { body: '{}', type: 'application/json', delayMs: Infinity }], /keys of issuer .* could not be read/))
  })

  test('the bodies never echo the tokens', async () => {
    const ticket = await ticketFor(u.pod, SHARED)
    const claimToken = await bobIdToken(u, { claims: { aud: ['x'] } })
    const text = await (await exchange(u, { ticket, claimToken })).text()
    for (const part of claimToken.split('.')) expect(text).not.toContain(part)
  })
})

describe('the issuer resolvers are shared with the resource server (one cache each)', () => {
  test('a second exchange by the same party fetches nothing', async () => {
    await bobToken(u)
    const before = u.pod.fetches()
    await bobToken(u)
    expect(u.pod.fetches()).toBe(before)
  })
  test("after the RS verified a Solid-OIDC token of Carol's OP, her UMA exchange reuses its JWKS cache", async () => {
    const profile = 'https://carol.example/profile/card'
    const op = 'https://op-carol.example'
    u.pod.docs.set(profile, { body: profileTurtle(op), type: 'text/turtle' })
    u.pod.docs.set(`${op}/.well-known/openid-configuration`, { body: JSON.stringify({ issuer: op, jwks_uri: `${op}/jwks` }), type: 'application/json' })
    u.pod.docs.set(`${op}/jwks`, { body: JSON.stringify({ keys: [u.opJwk] }), type: 'application/json' })
    const claims = { webid: `${profile}#me`, sub: `${profile}#me`, iss: op, azp: BOB_APP }
    // Carol's app reads a public-or-not resource with a DPoP-bound access token of her OP: the RS resolves her issuer
    const accessToken = await bobIdToken(u, { header: { typ: 'at+jwt' }, claims: { ...claims, aud: 'solid', client_id: BOB_APP } })
    const before = u.pod.fetches()
    const res = await withToken(u.pod, u.bobKey, accessToken, 'GET', SHARED)
    expect(res.status).toBe(403) // authenticated as Carol, who has no access
    expect(u.pod.fetches()).toBe(before + 3) // profile, discovery, JWKS
    // Past the fetcher's own 5 s floor, within the JWKS cache's 10 minutes: only the profile is read again
    u.pod.clock.now += 10_000
    try {
      const ticket = await ticketFor(u.pod, SHARED)
      await refused(await exchange(u, { ticket, claimToken: await bobIdToken(u, { claims }) }), 403, 'request_denied')
      expect(u.pod.fetches()).toBe(before + 4)
    } finally {
      u.pod.clock.now -= 10_000
    }
  })
})
