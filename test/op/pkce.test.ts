import { describe, expect, test } from 'bun:test'
import { checkCodeVerifierSyntax, s256Challenge, verifyPkce } from '../../src/op/pkce.ts'
import { HttpError } from '../../src/http/errors.ts'

// RFC 7636 Appendix B
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'

function rejects(fn: () => void, description: string | RegExp): void {
  let err: unknown
  try {
    fn()
  } catch (e) {
    err = e
  }
  expect(err).toBeInstanceOf(HttpError)
  const e = err as HttpError
  expect({ status: e.status, code: e.code }).toEqual({ status: 400, code: 'invalid_grant' })
  expect(e.description).toMatch(description)
}

describe('RFC 7636 §4.1: code_verifier = 43*128unreserved', () => {
  test.each([
    ['43 characters', 'a'.repeat(43)],
    ['128 characters', 'Z'.repeat(128)],
    ['every unreserved character', `ABCXYZabcxyz0189-._~${'a'.repeat(30)}`],
  ])('accepts a verifier of %s', (_, v) => {
    expect(() => checkCodeVerifierSyntax(v)).not.toThrow()
  })
  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['not a string', 42],
  ])('rejects a %s verifier', (_, v) => {
    rejects(() => checkCodeVerifierSyntax(v), 'code_verifier is required: the authorization request carried a code_challenge')
  })
  test.each([
    ['42 characters', 'a'.repeat(42), 'code_verifier is 42 characters long; it must be 43 to 128'],
    ['129 characters', 'a'.repeat(129), 'code_verifier is 129 characters long; it must be 43 to 128'],
    ['10 characters (the Primer example)', 'JXPOuToEB7', 'code_verifier is 10 characters long; it must be 43 to 128'],
  ])('rejects a verifier of %s', (_, v, description) => {
    rejects(() => checkCodeVerifierSyntax(v), description)
  })
  test.each([['+'], ['/'], ['='], [' '], ['%'], ['é']])('rejects a verifier containing %p', c => {
    rejects(() => checkCodeVerifierSyntax(`${'a'.repeat(42)}${c}`), 'code_verifier may only contain A-Z a-z 0-9 - . _ ~')
  })
})

describe('RFC 7636 §4.2: S256 challenge', () => {
  test('matches RFC 7636 Appendix B', () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE)
  })
  test('matches the Solid-OIDC Primer pair (a transform check only: that verifier is too short)', () => {
    expect(s256Challenge('JXPOuToEB7')).toBe('HSi9dwlvRpNHCDm-L8GOdM16qcb0tLHPZqQSvaWXTI0')
  })
  test('is base64url without padding', () => {
    expect(s256Challenge('a'.repeat(43))).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})

describe('RFC 7636 §4.6: the server verifies code_verifier against code_challenge', () => {
  test('accepts the RFC 7636 Appendix B pair with S256', () => {
    expect(() => verifyPkce(VERIFIER, CHALLENGE, 'S256')).not.toThrow()
  })
  test('accepts plain when the verifier equals the challenge', () => {
    expect(() => verifyPkce(VERIFIER, VERIFIER, 'plain')).not.toThrow()
  })
  test('rejects a missing verifier', () => {
    rejects(() => verifyPkce(undefined, CHALLENGE, 'S256'), 'code_verifier is required: the authorization request carried a code_challenge')
  })
  test('rejects a malformed verifier before comparing', () => {
    rejects(() => verifyPkce('short', CHALLENGE, 'S256'), 'code_verifier is 5 characters long; it must be 43 to 128')
  })
  test.each([
    ['another verifier with S256', `${VERIFIER.slice(0, -1)}Y`, CHALLENGE, 'S256'],
    ['the challenge sent as verifier with S256', CHALLENGE, CHALLENGE, 'S256'],
    ['the S256 verifier checked as plain', VERIFIER, CHALLENGE, 'plain'],
  ])('rejects %s', (_, v, challenge, method) => {
    rejects(() => verifyPkce(v, challenge, method), `code_verifier does not match the code_challenge (method ${method})`)
  })
  test.each([['s256'], ['SHA256'], ['']])('rejects the unsupported method %p', method => {
    rejects(() => verifyPkce(VERIFIER, CHALLENGE, method), /code_challenge_method .* is not supported; expected S256/)
  })
})
