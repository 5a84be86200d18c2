// RFC 9530 Content-Digest as a pure check: parse the field, compare it with the body bytes.

import { describe, expect, test } from 'bun:test'
import { checkBodyDigest, declaresContent, mayHaveContent, parseContentDigest, type SignedBody } from '../../../src/auth/httpsig/content-digest.ts'
import { HttpError } from '../../../src/http/errors.ts'
import { contentDigestOf } from './sign-request.ts'

// RFC 9530 Appendix B.1: the digests of `{"hello": "world"}` (no trailing newline).
const HELLO = '{"hello": "world"}'
const HELLO_SHA256 = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:'
const HELLO_SHA512 = 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:'
const bytes = (s: string) => new TextEncoder().encode(s)
const signedBody = (field: string): SignedBody => ({ contentDigest: parseContentDigest(field) })

function refusal(f: () => unknown): HttpError {
  try {
    f()
  } catch (e) {
    return e as HttpError
  }
  throw new Error('expected a refusal')
}

describe('RFC 9530 §2 Content-Digest field', () => {
  test('the RFC 9530 B.1 digests are what the test signer computes', () => {
    expect(contentDigestOf(HELLO, 'sha-256')).toBe(HELLO_SHA256)
    expect(contentDigestOf(HELLO, 'sha-512')).toBe(HELLO_SHA512)
  })
  test('sha-256 and sha-512 members are read; unknown algorithms are ignored', () => {
    const d = parseContentDigest(`md5=:aGVsbG8=:, ${HELLO_SHA256}, unixsum=42, ${HELLO_SHA512}`)
    expect([...d.keys()]).toEqual(['sha-256', 'sha-512'])
  })
  test.each([
    ['no field', null, 'has no Content-Digest field'],
    ['not a Dictionary', 'sha-256=:abc', 'not a structured Dictionary'],
    ['only unknown algorithms', 'md5=:aGVsbG8=:, sha=:aGVsbG8=:', 'must carry a digest the pod can check: sha-256 or sha-512'],
    [
      'a known algorithm whose value is not a byte sequence',
      'sha-256="X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE="',
      'member sha-256 must be a byte sequence',
    ],
  ])('%s → 401 invalid_signature', (_case, field, reason) => {
    const err = refusal(() => parseContentDigest(field))
    expect(err.status).toBe(401)
    expect(err.code).toBe('invalid_signature')
    expect(err.description).toContain(reason)
  })
})

describe('RFC 9530 §2 the digest of the content as received', () => {
  test.each([HELLO_SHA256, HELLO_SHA512, `${HELLO_SHA256}, ${HELLO_SHA512}`])('%s matches the body', field => {
    expect(() => checkBodyDigest(signedBody(field), bytes(HELLO))).not.toThrow()
  })
  test.each([
    ['another body', HELLO_SHA256, '{"hello": "World"}', 'does not match the signed Content-Digest (sha-256)'],
    ['an empty body for a non-empty digest', HELLO_SHA512, '', 'does not match the signed Content-Digest (sha-512)'],
    ['one of two digests wrong', `${HELLO_SHA256}, sha-512=:${Buffer.alloc(64).toString('base64')}:`, HELLO, '(sha-512)'],
    ['a digest of the wrong length', 'sha-256=:AAAA:', HELLO, '(sha-256)'],
  ])('%s → 401 invalid_signature', (_case, field, body, reason) => {
    const err = refusal(() => checkBodyDigest(signedBody(field), bytes(body)))
    expect(err.status).toBe(401)
    expect(err.code).toBe('invalid_signature')
    expect(err.description).toContain(reason)
  })
  test('without a covered digest, a body is refused and no body is fine', () => {
    expect(refusal(() => checkBodyDigest({ contentDigest: undefined }, bytes('x'))).description).toContain('must send Content-Digest')
    expect(() => checkBodyDigest({ contentDigest: undefined }, new Uint8Array())).not.toThrow()
  })
})

describe('which requests announce content', () => {
  test.each([
    [{}, false, false],
    [{ 'content-length': '0' }, false, false],
    [{ 'content-length': '5' }, true, true],
    [{ 'transfer-encoding': 'chunked' }, false, true],
  ])('%o: declares %p, may have %p', (headers, declares, may) => {
    expect(declaresContent(new Headers(headers))).toBe(declares)
    expect(mayHaveContent(new Headers(headers))).toBe(may)
  })
})
