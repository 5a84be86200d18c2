import { describe, expect, test } from 'bun:test'
import { cookieName, parseCookies, serializeCookie } from '../../src/http/cookies.ts'
import { checkCsrf, checkSameOrigin, csrfTokenFor } from '../../src/http/csrf.ts'
import { HttpError } from '../../src/http/errors.ts'

const BASE = 'http://localhost:3000'

describe('cookies (RFC 6265bis)', () => {
  test('parses a Cookie header; the first of a repeated name wins', () => {
    expect([...parseCookies('a=1; b="2"; a=3; junk; =x')]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
  })
  test('serializes HttpOnly, Path=/, SameSite and Secure only when asked', () => {
    expect(serializeCookie('s', 'v', { maxAge: 60, sameSite: 'Lax', secure: false })).toBe('s=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax')
    expect(serializeCookie('s', 'v', { maxAge: 60, sameSite: 'Strict', secure: true })).toEndWith('SameSite=Strict; Secure')
  })
  test('uses the __Host- prefix under https only', () => {
    expect(cookieName('x', true)).toBe('__Host-x')
    expect(cookieName('x', false)).toBe('x')
  })
})

describe('CSRF (double submit + Origin)', () => {
  const csrfError = (f: () => void) => {
    try {
      f()
    } catch (e) {
      return e as HttpError
    }
    throw new Error('no error')
  }
  test('a fresh token comes with a SameSite=Strict cookie; an existing one is reused', () => {
    const { token, setCookie } = csrfTokenFor(null, BASE)
    expect(setCookie).toContain('SameSite=Strict')
    expect(csrfTokenFor(`solopod_csrf=${token}`, BASE)).toEqual({ token })
  })
  test('under https the cookie is __Host- and Secure', () => {
    const { setCookie } = csrfTokenFor(null, 'https://pod.example')
    expect(setCookie).toStartWith('__Host-solopod_csrf=')
    expect(setCookie).toContain('Secure')
  })
  test('accepts the matching token from our origin or without Origin', () => {
    const { token } = csrfTokenFor(null, BASE)
    checkCsrf({ cookieHeader: `solopod_csrf=${token}`, sent: token, origin: BASE, baseUrl: BASE })
    checkCsrf({ cookieHeader: `solopod_csrf=${token}`, sent: token, origin: null, baseUrl: BASE })
  })
  test.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['origin null', { origin: 'null' }],
    ['no cookie', { cookieHeader: '' }],
    ['no token', { sent: undefined }],
    ['a different token', { sent: 'B'.repeat(43) }],
  ])('refuses %s with 403 csrf_failed', (_, change) => {
    const token = 'A'.repeat(43)
    const e = csrfError(() => checkCsrf({ cookieHeader: `solopod_csrf=${token}`, sent: token, origin: BASE, baseUrl: BASE, ...change }))
    expect({ status: e.status, code: e.code }).toEqual({ status: 403, code: 'csrf_failed' })
  })
  test('checkSameOrigin refuses other origins and accepts ours or none', () => {
    checkSameOrigin(BASE, BASE)
    checkSameOrigin(null, BASE)
    expect(csrfError(() => checkSameOrigin('https://evil.example', BASE)).code).toBe('csrf_failed')
  })
})
