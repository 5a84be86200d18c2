// resolveTarget (request URL → canonical stored path) and nameFromSlug (Slug → one safe segment).

import { describe, expect, test } from 'bun:test'
import { HttpError } from '../../src/http/errors.ts'
import { resolveTarget } from '../../src/store/target.ts'
import { isReservedPath } from '../../src/http/pod-paths.ts'
import { nameFromSlug } from '../../src/resources/resource-names.ts'

const BASE = 'https://pod.example'
const pathOf = (raw: string) => resolveTarget(BASE, raw).path

function refusal(raw: string): { status: number; code: string } | undefined {
  try {
    resolveTarget(BASE, raw)
    return undefined
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return { status: err.status, code: err.code }
  }
}

describe('Solid Protocol §3.1 one canonical path per resource', () => {
  test('the root is /', () => {
    expect(pathOf(`${BASE}/`)).toBe('/')
    expect(pathOf(BASE)).toBe('/')
  })

  test('a container keeps its trailing slash', () => {
    expect(pathOf(`${BASE}/a/b/`)).toBe('/a/b/')
  })

  test('query and fragment are not part of the path', () => {
    expect(pathOf(`${BASE}/doc?x=/../y#frag`)).toBe('/doc')
  })

  test('percent-encoding is normalised: unreserved decoded, the rest upper-case hex', () => {
    expect(pathOf(`${BASE}/%41b%7e`)).toBe('/Ab~')
    expect(pathOf(`${BASE}/caf%c3%a9`)).toBe('/caf%C3%A9')
    expect(pathOf(`${BASE}/a b`)).toBe('/a%20b')
  })

  test('sub-delimiters, : and @ stay readable', () => {
    expect(pathOf(`${BASE}/a:b@c;d=e,f!g$h&i'j(k)l*m+n`)).toBe(`/a:b@c;d=e,f!g$h&i'j(k)l*m+n`)
  })

  test('the URL is the base URL plus the canonical path', () => {
    expect(resolveTarget(BASE, `${BASE}/x/caf%c3%a9`).url).toBe(`${BASE}/x/caf%C3%A9`)
  })
})

describe('issue 3 bad input: path traversal and ambiguous paths are 400 invalid_path', () => {
  test.each([
    ['a dot-dot segment', '/pub/../x'],
    ['a trailing dot-dot segment', '/pub/..'],
    ['a dot segment', '/pub/./x'],
    ['an encoded dot-dot', '/pub/%2e%2e/x'],
    ['an upper-case encoded dot-dot', '/pub/%2E%2E/x'],
    ['a half-encoded dot-dot', '/pub/.%2e/x'],
    ['the other half-encoded dot-dot', '/pub/%2e./x'],
    ['an encoded dot', '/pub/%2e/x'],
    ['an encoded slash', '/pub/a%2Fb'],
    ['a lower-case encoded slash', '/pub/a%2fb'],
    ['an encoded slash hiding a dot-dot', '/pub/..%2Fx'],
    ['a NUL byte', '/pub/a%00b'],
    ['another control character', '/pub/a%0Ab'],
    ['a DEL character', '/pub/a%7Fb'],
    ['a backslash', '/pub/a\\b'],
    ['an encoded backslash', '/pub/..%5Cx'],
    ['an empty segment', '/pub//x'],
    ['malformed percent-encoding', '/pub/%zz'],
    ['a lone percent sign', '/pub/100%'],
    ['an over-long path', `/${'a'.repeat(2100)}`],
  ])('refuses %s (%s)', (_what, path) => {
    expect(refusal(BASE + path)).toEqual({ status: 400, code: 'invalid_path' })
  })

  test('refuses a request target that is not an absolute path', () => {
    expect(refusal('*')).toEqual({ status: 400, code: 'invalid_path' })
  })
})

describe('reserved URL space reserved paths', () => {
  test.each(['/.oidc/auth', '/.oidc', '/.admin/setup', '/.uma/token', '/.well-known/openid-configuration', '/.well-known/'])('%s is reserved', path =>
    expect(isReservedPath(path)).toBe(true),
  )

  test.each(['/pub/.oidc', '/profile/card', '/.acl', '/.wellknown'])('%s is not reserved', path => expect(isReservedPath(path)).toBe(false))
})

describe('Solid Protocol §5.3 POST: nameFromSlug', () => {
  test('keeps a plain name', () => {
    expect(nameFromSlug('notes-2024.ttl')).toBe('notes-2024.ttl')
  })

  test('decodes a percent-encoded Slug and stores non-ASCII the way resolveTarget does', () => {
    expect(nameFromSlug('caf%C3%A9')).toBe('caf%C3%A9')
    expect(nameFromSlug('café')).toBe(pathOf(`${BASE}/café`).slice(1))
  })

  test('turns slashes, spaces and other unsafe characters into dashes', () => {
    expect(nameFromSlug('a/b c\\d')).toBe('a-b-c-d')
    expect(nameFromSlug('%2F..%2Fetc')).toBe('..-etc')
  })

  test.each([null, '', '   ', '.', '..', '...', '%2e%2e', 'x.acl', '.acl', '///'])('an unusable Slug %p gets a random name', slug => {
    expect(nameFromSlug(slug)).toMatch(/^[0-9a-f-]{36}$/)
  })

  test('a name minted from any Slug is one segment that resolveTarget accepts unchanged', () => {
    for (const slug of ['../../x', 'a%00b', 'é/../..', '%E0%A4%A', 'x'.repeat(500), '\u0000\u0001', '.hidden']) {
      const name = nameFromSlug(slug)
      expect(pathOf(`${BASE}/c/${name}`)).toBe(`/c/${name}`)
    }
  })

  test('caps the length of a name', () => {
    expect(nameFromSlug('x'.repeat(500)).length).toBeLessThanOrEqual(120)
  })
})
