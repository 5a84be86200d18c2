// RFC 9421 §3.2 verification as a pure function: facts, a clock and a key lookup in, a result or one error out.

import { describe, expect, test } from 'bun:test'
import { verifySignedRequest, type SignedRequestFacts } from '../../../src/auth/httpsig/verify-request.ts'
import { toVerificationKey, type PublicJwk } from '../../../src/auth/httpsig/algorithms.ts'
import { HttpError } from '../../../src/http/errors.ts'
import { contentDigestOf, signedHeaders, type SignOptions } from './sign-request.ts'
import { makeKey } from './key-fixture.ts'

const URL_ = 'https://pod.example/doc?x=1'
const key = makeKey('ed25519')
const NOW = 1_800_000_000_000

async function facts(o: Partial<SignOptions> = {}, lookups: string[] = []): Promise<SignedRequestFacts> {
  const headers = await signedHeaders(URL_, { key: key.privateKey, alg: 'ed25519', keyid: 'https://keys.example/k#key', created: NOW / 1000, ...o })
  return {
    method: 'GET',
    targetUri: URL_,
    headers: new Headers(headers),
    label: 'sig1',
    required: ['@method', '@target-uri', 'authorization'],
    now: NOW,
    resolveKey: async keyid => {
      lookups.push(keyid)
      return toVerificationKey(key.publicJwk as PublicJwk)
    },
  }
}

async function refusal(f: SignedRequestFacts): Promise<HttpError> {
  try {
    await verifySignedRequest(f)
  } catch (e) {
    return e as HttpError
  }
  throw new Error('expected a refusal')
}

describe('RFC 9421 §3.2 verifySignedRequest', () => {
  test('a valid signature: key id, algorithm from the key, nonce, and until when to remember it', async () => {
    const v = await verifySignedRequest(await facts({ nonce: 'n1' }))
    expect(v).toEqual({ keyid: 'https://keys.example/k#key', alg: 'ed25519', nonce: 'n1', replayUntil: NOW + 60_001 })
  })
  test('an earlier expires shortens the replay memory', async () => {
    const v = await verifySignedRequest(await facts({ expires: NOW / 1000 + 10 }))
    expect(v.replayUntil).toBe(NOW + 10_000)
  })
  test.each([
    ['a stale created', { created: NOW / 1000 - 61 }, 'in the past'],
    ['a missing component', { fields: ['@method', 'authorization'] }, 'must cover @target-uri'],
    ['no nonce', { nonce: null }, 'needs a nonce'],
    ['a nonce longer than 256 characters', { nonce: 'n'.repeat(257) }, 'longer than 256'],
  ])('%s is refused before any key is looked up', async (_what, o, reason) => {
    const lookups: string[] = []
    const e = await refusal(await facts(o as Partial<SignOptions>, lookups))
    expect({ status: e.status, code: e.code }).toEqual({ status: 401, code: 'invalid_signature' })
    expect(e.description).toContain(reason)
    expect(lookups).toEqual([])
  })
  test.each([
    ['no Signature-Input', (h: Headers) => h.delete('signature-input'), 'no Signature-Input field'],
    ['no Signature', (h: Headers) => h.delete('signature'), 'no Signature field'],
    ['Signature-Input not a Dictionary', (h: Headers) => h.set('signature-input', '("@method"'), 'not a structured Dictionary'],
    ['Signature not a byte sequence', (h: Headers) => h.set('signature', 'sig1="abc"'), 'must be a byte sequence'],
    ['Signature-Input member not an inner list', (h: Headers) => h.set('signature-input', 'sig1=1'), 'must be an inner list'],
    [
      'an alg outside the registry',
      (h: Headers) => h.set('signature-input', h.get('signature-input')!.replace(';keyid', ';alg="hmac-sha256";keyid')),
      'alg must be one of',
    ],
  ])('%s → 401, no key looked up', async (_what, change, reason) => {
    const lookups: string[] = []
    const f = await facts({}, lookups)
    change(f.headers)
    const e = await refusal(f)
    expect(e.status).toBe(401)
    expect(e.description).toContain(reason)
    expect(lookups).toEqual([])
  })
})

describe('RFC 9530 Content-Digest as a required component (a request with content)', () => {
  const BODY = '{"hello": "world"}'
  const REQUIRED = ['@method', '@target-uri', 'authorization', 'content-digest']
  async function withContent(o: Partial<SignOptions>, lookups: string[] = []): Promise<SignedRequestFacts> {
    return { ...(await facts({ method: 'PUT', body: BODY, ...o }, lookups)), method: 'PUT', required: REQUIRED }
  }
  test('a covered Content-Digest comes back with the verified signature', async () => {
    const v = await verifySignedRequest(await withContent({ digest: 'sha-512' }))
    expect([...v.contentDigest!.keys()]).toEqual(['sha-512'])
    expect(Buffer.from(v.contentDigest!.get('sha-512')!).toString('base64')).toBe(contentDigestOf(BODY, 'sha-512').slice('sha-512=:'.length, -1))
  })
  test.each([
    ['no content-digest covered', { digest: null }, 'must send Content-Digest'],
    [
      'only one member covered (;key): an unsigned member could be added beside it',
      { fields: ['@method', '@target-uri', 'authorization', 'content-digest;key="sha-256"'] },
      'must cover the whole content-digest field',
    ],
    [
      'a covered Content-Digest with no algorithm the pod knows',
      { digest: null, fields: REQUIRED, headers: { 'content-digest': 'md5=:aGVsbG8=:' } },
      'sha-256 or sha-512',
    ],
  ])('%s → 401 before any key is looked up', async (_what, o, reason) => {
    const lookups: string[] = []
    const e = await refusal(await withContent(o as Partial<SignOptions>, lookups))
    expect({ status: e.status, code: e.code }).toEqual({ status: 401, code: 'invalid_signature' })
    expect(e.description).toContain(reason)
    expect(lookups).toEqual([])
  })
})
